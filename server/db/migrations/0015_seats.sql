CREATE TABLE "sale_seats" (
	"sale_id" text NOT NULL,
	"seat_id" integer NOT NULL,
	"ticket_type_id" integer NOT NULL,
	"hold_token" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seat_plans" (
	"event_date_id" integer PRIMARY KEY NOT NULL,
	"provider" text DEFAULT 'holdfast' NOT NULL,
	"provider_identifier" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seats" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_date_id" integer NOT NULL,
	"section" text NOT NULL,
	"row" text NOT NULL,
	"number" text NOT NULL,
	"position" integer NOT NULL,
	"x" integer NOT NULL,
	"y" integer NOT NULL,
	"ticket_type_id" integer,
	"holder" text,
	"held_until" timestamp (3) with time zone,
	"sale_id" text,
	"sold_sale_id" text
);
--> statement-breakpoint
ALTER TABLE "sale_seats" ADD CONSTRAINT "sale_seats_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_seats" ADD CONSTRAINT "sale_seats_seat_id_seats_id_fk" FOREIGN KEY ("seat_id") REFERENCES "public"."seats"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_seats" ADD CONSTRAINT "sale_seats_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_plans" ADD CONSTRAINT "seat_plans_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seats" ADD CONSTRAINT "seats_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seats" ADD CONSTRAINT "seats_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sale_seats_sale_seat" ON "sale_seats" USING btree ("sale_id","seat_id");--> statement-breakpoint
CREATE INDEX "sale_seats_sale_type" ON "sale_seats" USING btree ("sale_id","ticket_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "seats_date_place" ON "seats" USING btree ("event_date_id","section","row","number");--> statement-breakpoint
CREATE INDEX "seats_date_row" ON "seats" USING btree ("event_date_id","section","row","position");--> statement-breakpoint
CREATE INDEX "seats_holder" ON "seats" USING btree ("holder");--> statement-breakpoint
CREATE INDEX "seats_sale" ON "seats" USING btree ("sale_id");