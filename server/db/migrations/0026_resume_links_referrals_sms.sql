CREATE TABLE "referral_rewards" (
	"sale_id" text PRIMARY KEY NOT NULL,
	"referrer_user_id" integer NOT NULL,
	"code" text NOT NULL,
	"discount_code_id" integer,
	"created_at" timestamp (3) with time zone NOT NULL,
	"sent_at" timestamp (3) with time zone,
	CONSTRAINT "referral_rewards_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "reward_discount" integer;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "referrer_user_id" integer;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "resume_link_sent_for" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "channel" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_referrer_user_id_users_id_fk" FOREIGN KEY ("referrer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_referrer_user_id_users_id_fk" FOREIGN KEY ("referrer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sales_reference" ON "sales" USING btree ("reference");