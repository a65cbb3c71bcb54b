CREATE TABLE "event_payment_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"option" text NOT NULL,
	"label" text NOT NULL,
	"instalments" integer NOT NULL,
	"interval_days" integer NOT NULL,
	CONSTRAINT "event_payment_plans_count" CHECK ("event_payment_plans"."instalments" >= 1)
);
--> statement-breakpoint
CREATE TABLE "instalment_plans" (
	"sale_id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"option" text NOT NULL,
	"currency" text NOT NULL,
	"total" integer NOT NULL,
	"payment_method_id" integer NOT NULL,
	"contact_number" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"completed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "instalments" (
	"id" serial PRIMARY KEY NOT NULL,
	"sale_id" text NOT NULL,
	"seq" integer NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"amount" integer NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone NOT NULL,
	"reminder_sent_at" timestamp (3) with time zone,
	"paid_at" timestamp (3) with time zone,
	"provider_payment_id" text,
	"last_error" text,
	CONSTRAINT "instalments_amount_positive" CHECK ("instalments"."amount" >= 1)
);
--> statement-breakpoint
CREATE TABLE "sandbox_cards" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"funding" text NOT NULL,
	"behaviour" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"card_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"failure_message" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sandbox_charges_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "saved_payment_methods" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_method_id" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"funding" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organisers" ADD COLUMN "contact_email" text;--> statement-breakpoint
ALTER TABLE "event_payment_plans" ADD CONSTRAINT "event_payment_plans_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instalment_plans" ADD CONSTRAINT "instalment_plans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instalment_plans" ADD CONSTRAINT "instalment_plans_payment_method_id_saved_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."saved_payment_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instalments" ADD CONSTRAINT "instalments_sale_id_instalment_plans_sale_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."instalment_plans"("sale_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD CONSTRAINT "sandbox_charges_card_id_sandbox_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."sandbox_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_payment_methods" ADD CONSTRAINT "saved_payment_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_payment_plans_option" ON "event_payment_plans" USING btree ("event_id","option");--> statement-breakpoint
CREATE UNIQUE INDEX "instalments_sale_seq" ON "instalments" USING btree ("sale_id","seq");--> statement-breakpoint
CREATE INDEX "instalments_due" ON "instalments" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_payment_methods_provider_id" ON "saved_payment_methods" USING btree ("provider","provider_method_id");--> statement-breakpoint
CREATE INDEX "saved_payment_methods_user" ON "saved_payment_methods" USING btree ("user_id");