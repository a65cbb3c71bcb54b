-- A buyer in the queue may ask to be e-mailed when it is their turn; the e-mail is sent once.
ALTER TABLE "queue_places" ADD COLUMN "notify_email" text;--> statement-breakpoint
ALTER TABLE "queue_places" ADD COLUMN "notified_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "queue_places_to_notify" ON "queue_places" USING btree ("event_date_id","number") WHERE "queue_places"."notify_email" IS NOT NULL AND "queue_places"."notified_at" IS NULL;