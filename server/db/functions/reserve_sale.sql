-- A whole reservation of a basket without seats in one statement, so it costs one round trip and
-- the locks last only as long as the statement. The caller has read the basket and checked its
-- rules (minimums, maximums, required tickets) without locks; here, under the sale's row lock:
--   * a sale gone, paid, or whose basket (lines, vouchers, code, seats) is no longer the one read
--     answers 'changed' and the caller reads again;
--   * a sale already holding its tickets answers 'held' with its reference and deadline;
--   * otherwise everything `reserve_claims` does (buyer counts, pools, earlier holds, the code's
--     use, each claim) is done; a refusal raises SQLSTATE HF001 with the verdict as its detail, so
--     the statement, and with it everything it wrote, is undone.
-- p_basket: the lines as '<ticket type id>:<qty>' by ticket type id, joined with ',', then '|v'
-- and the number of voucher lines.
-- Sequential scans are ruled out, as in every reservation function (see claim_hold.sql).
CREATE OR REPLACE FUNCTION reserve_sale(
  p_sale text, p_basket text, p_code integer, p_now timestamptz, p_deadline timestamptz, p_lock_timeout text,
  p_pools integer[], p_claims jsonb, p_keys text[], p_wanted jsonb, p_cap integer,
  p_reference text, p_buyer_ip text, p_user integer
) RETURNS jsonb
LANGUAGE plpgsql SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_sale record;
  v_basket text;
  v_verdict jsonb;
BEGIN
  PERFORM set_config('lock_timeout', p_lock_timeout, true);
  SELECT hold_deadline, reference, paid_at, discount_code_id, user_id INTO v_sale FROM sales WHERE id = p_sale FOR UPDATE;
  IF NOT FOUND OR v_sale.paid_at IS NOT NULL THEN
    RETURN jsonb_build_object('outcome', 'changed');
  END IF;
  IF v_sale.hold_deadline > p_now AND v_sale.reference IS NOT NULL THEN
    RETURN jsonb_build_object('outcome', 'held', 'reference', v_sale.reference, 'deadline', v_sale.hold_deadline);
  END IF;
  SELECT coalesce(string_agg(ticket_type_id || ':' || qty, ',' ORDER BY ticket_type_id), '')
      || '|v' || (SELECT count(*) FROM sale_vouchers WHERE sale_id = p_sale)
    INTO v_basket FROM sale_lines WHERE sale_id = p_sale;
  IF v_basket <> p_basket OR v_sale.discount_code_id IS DISTINCT FROM p_code
     OR EXISTS (SELECT 1 FROM sale_seats WHERE sale_id = p_sale) THEN
    RETURN jsonb_build_object('outcome', 'changed');
  END IF;
  v_verdict := reserve_claims(p_sale, p_now, p_deadline, p_pools, p_claims, p_keys, p_wanted, p_cap, p_code,
    p_reference, p_buyer_ip, coalesce(p_user, v_sale.user_id));
  IF v_verdict->>'refused' IS NOT NULL OR jsonb_array_length(v_verdict->'unavailable') > 0 THEN
    RAISE EXCEPTION 'reservation refused' USING ERRCODE = 'HF001', DETAIL = v_verdict::text;
  END IF;
  RETURN jsonb_build_object('outcome', 'reserved');
END
$fn$;
