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
