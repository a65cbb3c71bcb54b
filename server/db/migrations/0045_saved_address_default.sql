-- A buyer may make one saved address their default, which the checkout's address steps start from: at most one a buyer.
ALTER TABLE "user_addresses" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "user_addresses_one_default" ON "user_addresses" USING btree ("user_id") WHERE "user_addresses"."is_default";