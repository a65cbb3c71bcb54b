-- A queue caps places per client address and may ask buyers to sign in; the admitted buyers still shopping are found by an index.
ALTER TABLE "event_date_queues" ADD COLUMN "places_per_address" integer DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE "event_date_queues" ADD COLUMN "sign_in_to_queue" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "queue_places" ADD COLUMN "client_ip" text;--> statement-breakpoint
ALTER TABLE "queue_places" ADD COLUMN "user_id" integer;--> statement-breakpoint
CREATE INDEX "queue_places_address" ON "queue_places" USING btree ("event_date_id","client_ip");--> statement-breakpoint
CREATE INDEX "queue_places_account" ON "queue_places" USING btree ("event_date_id","user_id") WHERE "queue_places"."user_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "queue_places_shopping" ON "queue_places" USING btree ("event_date_id","admitted_at") WHERE "queue_places"."sale_id" IS NULL;--> statement-breakpoint
ALTER TABLE "event_date_queues" ADD CONSTRAINT "event_date_queues_places_per_address" CHECK ("event_date_queues"."places_per_address" > 0);
