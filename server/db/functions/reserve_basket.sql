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
