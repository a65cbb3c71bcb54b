CREATE TABLE "buyer_held" (
	"buyer_key" text NOT NULL,
	"event_date_id" integer NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "buyer_held_buyer_key_event_date_id_pk" PRIMARY KEY("buyer_key","event_date_id"),
	CONSTRAINT "buyer_held_not_negative" CHECK ("buyer_held"."held" >= 0)
);
--> statement-breakpoint
CREATE TABLE "buyer_holds" (
	"sale_id" text NOT NULL,
	"buyer_key" text NOT NULL,
	"event_date_id" integer NOT NULL,
	"qty" integer NOT NULL,
	"deadline" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "buyer_holds_sale_id_buyer_key_event_date_id_pk" PRIMARY KEY("sale_id","buyer_key","event_date_id")
);
--> statement-breakpoint
CREATE INDEX "buyer_holds_key_date_deadline" ON "buyer_holds" USING btree ("buyer_key","event_date_id","deadline");--> statement-breakpoint
-- Live reservations made before this migration count against their buyers from the start.
INSERT INTO "buyer_holds" ("sale_id", "buyer_key", "event_date_id", "qty", "deadline")
SELECT s."id", k."key", t."event_date_id", sum(h."qty")::int, s."hold_deadline"
FROM "holds" h
JOIN "sales" s ON s."id" = h."sale_id"
JOIN "ticket_types" t ON t."id" = h."ticket_type_id"
JOIN "event_dates" d ON d."id" = t."event_date_id" AND d."pool_id" = h."pool_id"
CROSS JOIN LATERAL (
  SELECT 'user:' || s."user_id" AS "key" WHERE s."user_id" IS NOT NULL
  UNION ALL SELECT 'ip:' || s."buyer_ip" WHERE s."buyer_ip" IS NOT NULL
) k
WHERE s."hold_deadline" > now() AND h."deadline" > now()
GROUP BY s."id", k."key", t."event_date_id", s."hold_deadline";
--> statement-breakpoint
INSERT INTO "buyer_held" ("buyer_key", "event_date_id", "held")
SELECT "buyer_key", "event_date_id", sum("qty")::int FROM "buyer_holds" GROUP BY "buyer_key", "event_date_id";
--> statement-breakpoint
-- One claim of `p_qty` from a pool for a sale, in one statement: releases the pool's expired holds
-- (through the pool-and-deadline index), then adds the claim when `sold + held` stays within
-- capacity. The caller holds the pool's row lock. True when the claim was made.
CREATE FUNCTION claim_hold(p_sale text, p_pool integer, p_type integer, p_qty integer, p_deadline timestamptz, p_now timestamptz) RETURNS boolean
LANGUAGE plpgsql AS $fn$
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
-- A buyer's count is only ever lowered under the buyer's advisory lock (rows whose deadline has
-- passed are deleted and counted off there); every other path ends a sale's rows by moving their
-- deadline to -infinity, skipping rows a reservation is releasing already, so no path waits on a
-- buyer's rows or count while holding a pool.
--
-- Everything a reservation does under the hot locks, in one call, so the locks are held for one
-- round trip and the commit: the per-buyer cap (each buyer key's advisory lock, then its counter
-- for each date, after releasing its expired rows), the pools' row locks in ascending id order,
-- (the claims' and those of the sale's earlier holds), the sale's earlier holds given back, the discount code's use claimed under the code's row lock,
-- then each claim, after writing the sale's new reference, hold deadline and buyer (the caller has
-- locked the sale's row). A refusal is answered, not raised: the caller rolls the transaction back.
--   p_claims: [{"pool": 1, "type": 2, "qty": 3}, …]; p_wanted: {"<event date id>": qty, …};
--   p_keys: the buyer's keys ('user:<id>', 'ip:<address>'), sorted; p_cap null: no buyer cap.
-- Answers {"refused": null | "buyer-limit" | "code", "unavailable": [ticket type ids]}.
CREATE FUNCTION reserve_claims(
  p_sale text, p_now timestamptz, p_deadline timestamptz, p_pools integer[], p_claims jsonb,
  p_keys text[], p_wanted jsonb, p_cap integer, p_code integer,
  p_reference text, p_buyer_ip text, p_user integer
) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
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
  WHERE id = ANY (p_pools) OR id IN (SELECT pool_id FROM holds WHERE sale_id = p_sale)
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
