-- Everything a reservation does under the hot locks, in one call, so the locks are held for one
-- round trip and the commit: the per-buyer cap (each buyer key's advisory lock, then its counter
-- for each date, after releasing its expired rows), the pools' row locks in ascending id order
-- (the claims' and those of the sale's earlier holds, found by index as one array), the sale's
-- earlier holds given back, the discount code's use claimed under the code's row lock (a use
-- counts until its sale's payment has ended, grace included), then each claim, after writing the
-- sale's new reference, hold deadline and buyer (the caller has locked the sale's row). A refusal
-- is answered, not raised: the caller rolls the transaction back.
--   p_claims: [{"pool": 1, "type": 2, "qty": 3}, …]; p_wanted: {"<event date id>": qty, …};
--   p_keys: the buyer's keys ('user:<id>', 'ip:<address>'), sorted; p_cap null: no buyer cap.
-- Answers {"refused": null | "buyer-limit" | "code", "unavailable": [ticket type ids]}.
--
-- A buyer's count is only ever lowered under the buyer's advisory lock (rows whose deadline has
-- passed are deleted and counted off there); every other path ends a sale's rows by moving their
-- deadline to -infinity, skipping rows a reservation is releasing already, so no path waits on a
-- buyer's rows or count while holding a pool.
-- Sequential scans are ruled out, as in every reservation function (see claim_hold.sql).
CREATE OR REPLACE FUNCTION reserve_claims(
  p_sale text, p_now timestamptz, p_deadline timestamptz, p_pools integer[], p_claims jsonb,
  p_keys text[], p_wanted jsonb, p_cap integer, p_code integer,
  p_reference text, p_buyer_ip text, p_user integer
) RETURNS jsonb
LANGUAGE plpgsql SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_key text;
  v_date record;
  v_claim record;
  v_held integer;
  v_code record;
  v_uses integer;
  v_unavailable integer[] := '{}';
BEGIN
  -- The sale (locked by the caller) takes its new reference, deadline and buyer first: its hold
  -- deadline is what makes it a use of its code.
  UPDATE sales SET reference = p_reference, hold_deadline = p_deadline, hold_extensions = 0, reserving_error = NULL,
    buyer_ip = p_buyer_ip, user_id = coalesce(p_user, user_id)
  WHERE id = p_sale;

  IF p_cap IS NOT NULL THEN
    FOREACH v_key IN ARRAY coalesce(p_keys, '{}') LOOP
      PERFORM pg_advisory_xact_lock(hashtext('holdfast-buyer:' || v_key));
    END LOOP;
  END IF;
  -- The sale's earlier rows stop counting at once; each buyer's next check releases them. A row
  -- another reservation has locked is one it is releasing already (its deadline has passed).
  UPDATE buyer_holds SET deadline = '-infinity'
  WHERE (sale_id, buyer_key, event_date_id) IN (
    SELECT sale_id, buyer_key, event_date_id FROM buyer_holds WHERE sale_id = p_sale FOR UPDATE SKIP LOCKED
  );

  IF p_cap IS NOT NULL AND coalesce(array_length(p_keys, 1), 0) > 0 THEN
    FOREACH v_key IN ARRAY p_keys LOOP
      FOR v_date IN SELECT key::integer AS id, value::integer AS qty FROM jsonb_each_text(p_wanted) ORDER BY 1 LOOP
        WITH gone AS (
          DELETE FROM buyer_holds
          WHERE buyer_key = v_key AND event_date_id = v_date.id AND deadline <= p_now
          RETURNING qty
        )
        INSERT INTO buyer_held AS b (buyer_key, event_date_id, held) VALUES (v_key, v_date.id, v_date.qty)
        ON CONFLICT (buyer_key, event_date_id) DO UPDATE SET held = b.held - (SELECT COALESCE(sum(qty), 0)::int FROM gone) + v_date.qty
        RETURNING held INTO v_held;
        -- Counted with this claim already: a refusal's caller rolls the count back with the rest.
        IF v_held > p_cap THEN
          RETURN jsonb_build_object('refused', 'buyer-limit', 'unavailable', '[]'::jsonb);
        END IF;
        INSERT INTO buyer_holds (sale_id, buyer_key, event_date_id, qty, deadline)
        VALUES (p_sale, v_key, v_date.id, v_date.qty, p_deadline);
      END LOOP;
    END LOOP;
  END IF;

  PERFORM 1 FROM capacity_pools
  WHERE id = ANY (p_pools || ARRAY(SELECT pool_id FROM holds WHERE sale_id = p_sale))
  ORDER BY id FOR UPDATE;

  WITH gone AS (
    DELETE FROM holds WHERE sale_id = p_sale RETURNING pool_id, qty
  ), per_pool AS (
    SELECT pool_id, sum(qty)::int AS qty FROM gone GROUP BY pool_id
  )
  UPDATE capacity_pools p SET held = p.held - g.qty FROM per_pool g WHERE p.id = g.pool_id;

  IF p_code IS NOT NULL THEN
    SELECT id, usage_limit, used INTO v_code FROM discount_codes WHERE id = p_code FOR UPDATE;
    IF NOT FOUND THEN
      RETURN jsonb_build_object('refused', 'code', 'unavailable', '[]'::jsonb);
    END IF;
    IF v_code.usage_limit IS NOT NULL THEN
      -- A use counts from the reservation to the end of its payment: while the sale's hold runs,
      -- and while a payment begun in time keeps its holds (the payment grace).
      SELECT count(*)::int INTO v_uses FROM sales s
      WHERE s.discount_code_id = p_code AND s.id <> p_sale AND s.paid_at IS NULL
        AND (s.hold_deadline > p_now OR EXISTS (SELECT 1 FROM holds h WHERE h.sale_id = s.id AND h.deadline > p_now));
      IF v_code.used + v_uses >= v_code.usage_limit THEN
        RETURN jsonb_build_object('refused', 'code', 'unavailable', '[]'::jsonb);
      END IF;
    END IF;
  END IF;

  FOR v_claim IN SELECT (c->>'pool')::integer AS pool, (c->>'type')::integer AS type, (c->>'qty')::integer AS qty
                 FROM jsonb_array_elements(p_claims) c LOOP
    IF NOT claim_hold(p_sale, v_claim.pool, v_claim.type, v_claim.qty, p_deadline, p_now) THEN
      v_unavailable := v_unavailable || v_claim.type;
    END IF;
  END LOOP;
  RETURN jsonb_build_object('refused', NULL, 'unavailable', to_jsonb(v_unavailable));
END
$fn$;
