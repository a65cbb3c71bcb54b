-- The reservation's statements are planned for the tables an on-sale makes, not the ones the
-- statistics last saw. A plan is made once per database session and kept; made while `holds`,
-- `buyer_holds` or a pool's page was small (a fresh database, the first minutes of an on-sale), it
-- was a sequential scan, which then read every hold of every buyer on every reservation, and the
-- hot pool's page with every dead version of its row, as the on-sale grew (a reservation cost
-- four times as much after a few thousand holds). With sequential scans ruled out inside these
-- functions, each statement goes through its index (each has one), whatever the statistics say.
-- The pools to lock are found by index too: the claims' pools and the sale's earlier holds' pools
-- as one array rather than an OR with a subquery, which no index can serve.
ALTER FUNCTION reserve_sale(text, text, integer, timestamptz, timestamptz, text, integer[], jsonb, text[], jsonb, integer, text, text, integer) SET enable_seqscan = off;
--> statement-breakpoint
ALTER FUNCTION claim_hold(text, integer, integer, integer, timestamptz, timestamptz) SET enable_seqscan = off;
--> statement-breakpoint
ALTER FUNCTION reservation_basket(text) SET enable_seqscan = off;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION reserve_claims(
  p_sale text, p_now timestamptz, p_deadline timestamptz, p_pools integer[], p_claims jsonb,
  p_keys text[], p_wanted jsonb, p_cap integer, p_code integer,
  p_reference text, p_buyer_ip text, p_user integer
) RETURNS jsonb
LANGUAGE plpgsql SET enable_seqscan = off AS $fn$
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
        INSERT INTO buyer_held AS b (buyer_key, event_date_id, held) VALUES (v_key, v_date.id, 0)
        ON CONFLICT (buyer_key, event_date_id) DO UPDATE SET held = b.held - (SELECT COALESCE(sum(qty), 0)::int FROM gone)
        RETURNING held INTO v_held;
        IF v_held + v_date.qty > p_cap THEN
          RETURN jsonb_build_object('refused', 'buyer-limit', 'unavailable', '[]'::jsonb);
        END IF;
        UPDATE buyer_held SET held = held + v_date.qty WHERE buyer_key = v_key AND event_date_id = v_date.id;
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
      SELECT count(*)::int INTO v_uses FROM sales
      WHERE discount_code_id = p_code AND hold_deadline > p_now AND id <> p_sale;
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
--> statement-breakpoint
-- A whole reservation in one round trip, basket read included: under the sale's row lock it reads
-- the basket and the rules of its ticket types, and when the basket plainly passes them (not
-- empty, each line within its minimum and its maximum per order, each required ticket present,
-- no date asking for more than the buyer cap alone) and has no seats, makes its claims through
-- `reserve_claims` exactly as `reserve_sale` does. Anything else answers 'check' having done
-- nothing: the caller reads the basket, words its refusal, or reserves it the longer way. So the
-- rules here only need to be as strict as the caller's (server/domain/reserve.ts), never looser;
-- a test holds the two to the same verdicts. A sale already holding its tickets answers 'held';
-- a refusal raises SQLSTATE HF001 with the verdict as its detail, undoing the statement.
-- p_max_per_order: the configured maximum where neither the type nor its event sets one;
-- p_cap null: no buyer cap (then no buyer keys are counted).
CREATE FUNCTION reserve_basket(
  p_sale text, p_now timestamptz, p_deadline timestamptz, p_lock_timeout text,
  p_max_per_order integer, p_cap integer, p_reference text, p_buyer_ip text, p_user integer
) RETURNS jsonb
LANGUAGE plpgsql SET enable_seqscan = off AS $fn$
DECLARE
  v_sale record;
  v_user integer;
  v_keys text[] := '{}';
  v_lines integer;
  v_passes boolean;
  v_pools integer[];
  v_claims jsonb;
  v_wanted jsonb;
  v_most integer;
  v_verdict jsonb;
BEGIN
  PERFORM set_config('lock_timeout', p_lock_timeout, true);
  SELECT s.hold_deadline, s.reference, s.paid_at, s.discount_code_id, s.user_id,
         EXISTS (SELECT 1 FROM sale_seats x WHERE x.sale_id = s.id) AS has_seats,
         EXISTS (SELECT 1 FROM sale_vouchers v WHERE v.sale_id = s.id) AS has_vouchers
    INTO v_sale FROM sales s WHERE s.id = p_sale FOR UPDATE OF s;
  IF NOT FOUND OR v_sale.paid_at IS NOT NULL OR v_sale.has_seats THEN
    RETURN jsonb_build_object('outcome', 'check');
  END IF;
  IF v_sale.hold_deadline > p_now AND v_sale.reference IS NOT NULL THEN
    RETURN jsonb_build_object('outcome', 'held', 'reference', v_sale.reference, 'deadline', v_sale.hold_deadline);
  END IF;

  WITH lines AS (
    SELECT l.ticket_type_id AS type_id, l.qty, t.min_per_customer, t.required_tickets,
           t.pool_id AS type_pool, d.pool_id AS date_pool, d.id AS date_id,
           CASE WHEN t.max_can_reserve > 0 THEN t.max_can_reserve
                WHEN e.max_per_order > 0 THEN e.max_per_order
                ELSE p_max_per_order END AS most
    FROM sale_lines l
    JOIN ticket_types t ON t.id = l.ticket_type_id
    JOIN event_dates d ON d.id = t.event_date_id
    JOIN events e ON e.id = d.event_id
    WHERE l.sale_id = p_sale
  ), dates AS (
    SELECT date_id, sum(qty)::int AS qty FROM lines GROUP BY date_id
  )
  SELECT
    (SELECT count(*)::int FROM lines),
    (SELECT coalesce(bool_and(
        NOT (l.min_per_customer > 1 AND l.qty < l.min_per_customer)
        AND l.qty <= l.most
        AND NOT EXISTS (
          SELECT 1 FROM jsonb_array_elements(l.required_tickets) g
          WHERE NOT EXISTS (
            SELECT 1 FROM jsonb_array_elements_text(g->'ids') i JOIN lines o ON o.type_id = i.value::integer))), true)
     FROM lines l),
    (SELECT coalesce(array_agg(DISTINCT p ORDER BY p), '{}') FROM lines, unnest(ARRAY[date_pool, type_pool]) p WHERE p IS NOT NULL),
    (SELECT coalesce(jsonb_agg(jsonb_build_object('pool', c.pool, 'type', c.type_id, 'qty', c.qty) ORDER BY c.type_id, c.n), '[]')
     FROM (SELECT type_id, qty, 1 AS n, date_pool AS pool FROM lines
           UNION ALL SELECT type_id, qty, 2, type_pool FROM lines WHERE type_pool IS NOT NULL) c),
    (SELECT coalesce(jsonb_object_agg(date_id::text, qty), '{}') FROM dates),
    (SELECT max(qty) FROM dates)
  INTO v_lines, v_passes, v_pools, v_claims, v_wanted, v_most;

  IF (v_lines = 0 AND NOT v_sale.has_vouchers) OR NOT v_passes OR (p_cap IS NOT NULL AND v_most > p_cap) THEN
    RETURN jsonb_build_object('outcome', 'check');
  END IF;

  v_user := coalesce(p_user, v_sale.user_id);
  IF p_cap IS NOT NULL THEN
    v_keys := ARRAY(
      SELECT k FROM unnest(ARRAY['user:' || v_user, 'ip:' || nullif(p_buyer_ip, '')]) k
      WHERE k IS NOT NULL ORDER BY k COLLATE "C");
  END IF;
  v_verdict := reserve_claims(p_sale, p_now, p_deadline, v_pools, v_claims, v_keys, v_wanted, p_cap,
    v_sale.discount_code_id, p_reference, p_buyer_ip, v_user);
  IF v_verdict->>'refused' IS NOT NULL OR jsonb_array_length(v_verdict->'unavailable') > 0 THEN
    RAISE EXCEPTION 'reservation refused' USING ERRCODE = 'HF001', DETAIL = v_verdict::text;
  END IF;
  RETURN jsonb_build_object('outcome', 'reserved');
END
$fn$;
