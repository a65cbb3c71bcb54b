-- One claim of `p_qty` from a pool for a sale, in one statement: releases the pool's expired holds
-- (through the pool-and-deadline index), then adds the claim when `sold + held` stays within
-- capacity. The caller holds the pool's row lock. True when the claim was made.
--
-- Sequential scans are ruled out, as in every reservation function: a plan made while the tables
-- were small would otherwise keep scanning every hold once an on-sale has made thousands. Each
-- statement is planned once per connection (plan_cache_mode = force_generic_plan), as in every
-- reservation function: with the default, PostgreSQL planned it again on every call, a third of a
-- reservation's database CPU.
CREATE OR REPLACE FUNCTION claim_hold(p_sale text, p_pool integer, p_type integer, p_qty integer, p_deadline timestamptz, p_now timestamptz) RETURNS boolean
LANGUAGE plpgsql SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_id integer;
BEGIN
  WITH gone AS (
    DELETE FROM holds WHERE pool_id = p_pool AND deadline <= p_now RETURNING qty
  ), released AS (
    SELECT COALESCE(sum(qty), 0)::int AS qty FROM gone
  ), verdict AS (
    SELECT p.id, r.qty AS released, (p.sold + p.held - r.qty + p_qty <= p.capacity) AS ok
    FROM capacity_pools p, released r WHERE p.id = p_pool
  ), counted AS (
    UPDATE capacity_pools p
    SET held = p.held - v.released + CASE WHEN v.ok THEN p_qty ELSE 0 END
    FROM verdict v WHERE p.id = v.id
    RETURNING v.ok
  )
  INSERT INTO holds (sale_id, pool_id, ticket_type_id, qty, deadline)
  SELECT p_sale, p_pool, p_type, p_qty, p_deadline FROM counted WHERE counted.ok
  RETURNING id INTO v_id;
  RETURN v_id IS NOT NULL;
END
$fn$;
--> statement-breakpoint
-- The basket a reservation reads before it claims (server/domain/reserve.ts): the sale's hold,
-- reference, payment, buyer, code, how many voucher lines, whether it has seats, and its lines
-- with each ticket type's rules and pools, as one JSON value. A PL/pgSQL function, like
-- checkout_snapshot, so that its five-table plan is prepared once per database session rather
-- than on every reservation, the call an on-sale makes most. STABLE: it reads only.
-- Sequential scans are ruled out, as in every reservation function (see claim_hold.sql).
CREATE OR REPLACE FUNCTION reservation_basket(p_sale text) RETURNS json
LANGUAGE plpgsql STABLE SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $fn$
BEGIN
  RETURN (
    SELECT json_build_object(
      'hold_deadline', s.hold_deadline, 'reference', s.reference, 'paid_at', s.paid_at, 'user_id', s.user_id,
      'discount_code_id', s.discount_code_id,
      'vouchers', (SELECT count(*)::int FROM sale_vouchers v WHERE v.sale_id = s.id),
      'has_seats', EXISTS (SELECT 1 FROM sale_seats x WHERE x.sale_id = s.id),
      'lines', COALESCE((
        SELECT json_agg(json_build_object(
          'ticketTypeId', t.id, 'name', t.name, 'qty', l.qty, 'minPerCustomer', t.min_per_customer,
          'requiredTickets', t.required_tickets, 'typePool', t.pool_id, 'datePool', d.pool_id, 'dateId', d.id,
          'maxCanReserve', t.max_can_reserve, 'eventMax', e.max_per_order) ORDER BY t.id)
        FROM sale_lines l
        JOIN ticket_types t ON t.id = l.ticket_type_id
        JOIN event_dates d ON d.id = t.event_date_id
        JOIN events e ON e.id = d.event_id
        WHERE l.sale_id = s.id), '[]'))
    FROM sales s WHERE s.id = p_sale
  );
END
$fn$;
--> statement-breakpoint
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
-- Sequential scans are ruled out, as in every reservation function (see claim_hold.sql).
CREATE OR REPLACE FUNCTION reserve_basket(
  p_sale text, p_now timestamptz, p_deadline timestamptz, p_lock_timeout text,
  p_max_per_order integer, p_cap integer, p_reference text, p_buyer_ip text, p_user integer
) RETURNS jsonb
LANGUAGE plpgsql SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $fn$
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
--> statement-breakpoint
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
--> statement-breakpoint
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
