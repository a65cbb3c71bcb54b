-- A mailing-list sign-up waits for its address to confirm it by a single-use, expiring link;
-- an express buyer's unproven address rides on the sale (and its tickets wait for an account)
-- until its one-time code is proven; a referrer is rewarded once per referred buyer's address.
CREATE TABLE "mailing_list_confirmations" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD COLUMN "referred_email" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "buyer_email" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "buyer_name" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "buyer_marketing" jsonb;--> statement-breakpoint
CREATE INDEX "mailing_list_confirmations_email" ON "mailing_list_confirmations" USING btree ("email","created_at");--> statement-breakpoint
-- Past rewards name their referred buyer's address, the first for each referrer and address only.
UPDATE "referral_rewards" AS r SET "referred_email" = d."email"
FROM (
  SELECT rr."sale_id", u."email", row_number() OVER (PARTITION BY rr."referrer_user_id", u."email" ORDER BY rr."created_at", rr."sale_id") AS n
  FROM "referral_rewards" rr JOIN "sales" s ON s."id" = rr."sale_id" JOIN "users" u ON u."id" = s."user_id"
) AS d
WHERE d."sale_id" = r."sale_id" AND d.n = 1;--> statement-breakpoint
CREATE UNIQUE INDEX "referral_rewards_referrer_referred" ON "referral_rewards" USING btree ("referrer_user_id","referred_email");--> statement-breakpoint
CREATE INDEX "sales_buyer_email" ON "sales" USING btree ("buyer_email") WHERE "sales"."buyer_email" IS NOT NULL;