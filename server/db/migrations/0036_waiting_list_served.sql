-- The waiting list served in turn: an entry's client address, its leaving and removal, and each event's offer window.
DROP INDEX "waiting_list_entries_type_email";--> statement-breakpoint
DROP INDEX "waiting_list_entries_next";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "waiting_list_offer_seconds" integer DEFAULT 172800 NOT NULL;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD COLUMN "client_ip" text;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD COLUMN "left_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD COLUMN "removed_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "waiting_list_entries_address" ON "waiting_list_entries" USING btree ("client_ip");--> statement-breakpoint
CREATE UNIQUE INDEX "waiting_list_entries_type_email" ON "waiting_list_entries" USING btree ("ticket_type_id",lower("email")) WHERE "waiting_list_entries"."left_at" IS NULL AND "waiting_list_entries"."removed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "waiting_list_entries_next" ON "waiting_list_entries" USING btree ("ticket_type_id","id") WHERE "waiting_list_entries"."offered_at" IS NULL AND "waiting_list_entries"."left_at" IS NULL AND "waiting_list_entries"."removed_at" IS NULL;