ALTER TABLE "organisers" ADD COLUMN "payment_merchant_id" text;--> statement-breakpoint
ALTER TABLE "organisers" ADD COLUMN "payment_provider_overridden" boolean DEFAULT false NOT NULL;