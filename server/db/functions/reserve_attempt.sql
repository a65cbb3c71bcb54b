-- A buyer's reservation attempt and the reservation itself in one round trip and one commit:
--   * a basket with tickets of a queued date the buyer has no turn for (p_queued: the queued dates
--     this request holds no admission for) answers 'queued' with that date, unless the sale holds
--     its tickets already, having done nothing;
--   * the address's attempt is counted and recorded (the captcha's rule, server/domain/captcha.ts),
--     and an attempt that needs a solved captcha and has none answers 'captcha' having reserved
--     nothing;
--   * otherwise `reserve_basket` runs; its refusal (SQLSTATE HF001) undoes only what the
--     reservation wrote, so the attempt stays recorded, and answers 'refused' with the verdict.
-- p_free: attempts an address makes in the window before a captcha is asked for (0: always; null:
-- no captcha, and no attempt recorded).
-- Sequential scans are ruled out, as in every reservation function (see claim_hold.sql).
CREATE OR REPLACE FUNCTION reserve_attempt(
  p_queued integer[], p_ip text, p_since timestamptz, p_free integer, p_solved boolean,
  p_sale text, p_now timestamptz, p_deadline timestamptz, p_lock_timeout text,
  p_max_per_order integer, p_cap integer, p_reference text, p_buyer_ip text, p_user integer
) RETURNS jsonb
LANGUAGE plpgsql SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_prior integer;
  v_date integer;
  v_detail text;
BEGIN
  IF cardinality(p_queued) > 0 THEN
    SELECT t.event_date_id INTO v_date
      FROM sale_lines l JOIN ticket_types t ON t.id = l.ticket_type_id JOIN sales s ON s.id = l.sale_id
     WHERE l.sale_id = p_sale AND t.event_date_id = ANY (p_queued) AND NOT coalesce(s.hold_deadline > p_now, false)
     ORDER BY t.event_date_id LIMIT 1;
    IF FOUND THEN
      RETURN jsonb_build_object('outcome', 'queued', 'date', v_date);
    END IF;
  END IF;
  IF p_free IS NOT NULL THEN
    SELECT count(*)::int INTO v_prior FROM reservation_attempts WHERE ip = p_ip AND at > p_since;
    INSERT INTO reservation_attempts (ip, at) VALUES (p_ip, p_now);
    IF v_prior >= p_free AND NOT p_solved THEN
      RETURN jsonb_build_object('outcome', 'captcha');
    END IF;
  END IF;
  BEGIN
    RETURN reserve_basket(p_sale, p_now, p_deadline, p_lock_timeout, p_max_per_order, p_cap, p_reference, p_buyer_ip, p_user);
  EXCEPTION WHEN SQLSTATE 'HF001' THEN
    GET STACKED DIAGNOSTICS v_detail = PG_EXCEPTION_DETAIL;
    RETURN jsonb_build_object('outcome', 'refused', 'verdict', v_detail::jsonb);
  END;
END
$fn$;
