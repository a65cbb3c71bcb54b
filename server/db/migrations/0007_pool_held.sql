ALTER TABLE "capacity_pools" ADD COLUMN "held" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
DELETE FROM "holds" WHERE "deadline" <= now();--> statement-breakpoint
UPDATE "capacity_pools" p SET "held" = COALESCE((SELECT sum(h."qty") FROM "holds" h WHERE h."pool_id" = p."id"), 0);--> statement-breakpoint
ALTER TABLE "capacity_pools" ADD CONSTRAINT "capacity_pools_held_within_capacity" CHECK ("capacity_pools"."held" >= 0 AND "capacity_pools"."sold" + "capacity_pools"."held" <= "capacity_pools"."capacity");
