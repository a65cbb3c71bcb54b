-- The organiser's console: accounts that run an organiser's on-sales, their audit, presale codes, the dashboard's samples, and a queue's pause and message.
CREATE TABLE "on_sale_samples" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_date_id" integer NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"waiting" integer NOT NULL,
	"admitted_through" integer NOT NULL,
	"shoppers" integer NOT NULL,
	"held" integer NOT NULL,
	"sold" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organiser_audit" (
	"id" serial PRIMARY KEY NOT NULL,
	"organiser_id" integer NOT NULL,
	"event_date_id" integer,
	"user_id" integer,
	"at" timestamp (3) with time zone NOT NULL,
	"action" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organiser_members" (
	"organiser_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "organiser_members_organiser_id_user_id_pk" PRIMARY KEY("organiser_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "presale_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_date_id" integer NOT NULL,
	"code" text NOT NULL,
	"max_uses" integer NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "presale_codes_uses" CHECK ("presale_codes"."max_uses" > 0 AND "presale_codes"."uses" >= 0 AND "presale_codes"."uses" <= "presale_codes"."max_uses")
);
--> statement-breakpoint
ALTER TABLE "event_date_queues" ADD COLUMN "paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "event_date_queues" ADD COLUMN "message" text;--> statement-breakpoint
ALTER TABLE "on_sale_samples" ADD CONSTRAINT "on_sale_samples_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organiser_audit" ADD CONSTRAINT "organiser_audit_organiser_id_organisers_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."organisers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organiser_audit" ADD CONSTRAINT "organiser_audit_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organiser_audit" ADD CONSTRAINT "organiser_audit_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organiser_members" ADD CONSTRAINT "organiser_members_organiser_id_organisers_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."organisers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organiser_members" ADD CONSTRAINT "organiser_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presale_codes" ADD CONSTRAINT "presale_codes_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "on_sale_samples_date" ON "on_sale_samples" USING btree ("event_date_id","at");--> statement-breakpoint
CREATE INDEX "organiser_audit_organiser" ON "organiser_audit" USING btree ("organiser_id","id");--> statement-breakpoint
CREATE INDEX "organiser_members_user" ON "organiser_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "presale_codes_date_code" ON "presale_codes" USING btree ("event_date_id",upper("code"));