-- A queue place records when its admission was first handed out and the one sale it reserved; a waiting list offer records when its listed address claimed it.
ALTER TABLE "queue_places" ADD COLUMN "admitted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "queue_places" ADD COLUMN "sale_id" text;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD COLUMN "claimed_at" timestamp (3) with time zone;