CREATE TABLE "sandbox_bank_decisions" (
	"provider_payment_id" text PRIMARY KEY NOT NULL,
	"outcome" text NOT NULL,
	"settles_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sale_payment_details" ADD COLUMN "truelayer_returned_from" integer;