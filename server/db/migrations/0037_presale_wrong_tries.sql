-- Wrong presale codes typed for a date, by address, so that codes cannot be guessed by trying many.
CREATE TABLE "presale_tries" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_date_id" integer NOT NULL,
	"ip" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "presale_tries" ADD CONSTRAINT "presale_tries_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "presale_tries_date_ip_at" ON "presale_tries" USING btree ("event_date_id","ip","at");