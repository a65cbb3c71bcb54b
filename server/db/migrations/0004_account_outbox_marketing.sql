CREATE TABLE "code_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"ip" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketing_consents" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"email" text NOT NULL,
	"topic" text NOT NULL,
	"organiser_id" integer,
	"subscribed" boolean NOT NULL,
	"source" text NOT NULL,
	"sale_id" text,
	"at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "one_time_codes" (
	"email" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"wrong_tries" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"failure" text
);
--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "verified_email" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "marketing_set_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "marketing_consents" ADD CONSTRAINT "marketing_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketing_consents" ADD CONSTRAINT "marketing_consents_organiser_id_organisers_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."organisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "code_sends_email_at" ON "code_sends" USING btree ("email","at");--> statement-breakpoint
CREATE INDEX "code_sends_ip_at" ON "code_sends" USING btree ("ip","at");--> statement-breakpoint
CREATE INDEX "marketing_consents_email" ON "marketing_consents" USING btree ("email","at");--> statement-breakpoint
CREATE INDEX "marketing_consents_organiser" ON "marketing_consents" USING btree ("organiser_id","at");--> statement-breakpoint
CREATE INDEX "outbox_recipient" ON "outbox" USING btree ("recipient","id");
