ALTER TABLE "events" ADD COLUMN "max_per_order" integer;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "buyer_ip" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "touched_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "sales_buyer_ip_hold" ON "sales" USING btree ("buyer_ip","hold_deadline");--> statement-breakpoint
CREATE INDEX "sales_user_hold" ON "sales" USING btree ("user_id","hold_deadline");--> statement-breakpoint
CREATE INDEX "sales_code_hold" ON "sales" USING btree ("discount_code_id","hold_deadline");