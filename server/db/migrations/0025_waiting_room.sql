CREATE TABLE "event_date_queues" (
	"event_date_id" integer PRIMARY KEY NOT NULL,
	"on_sale_at" timestamp (3) with time zone NOT NULL,
	"max_shoppers" integer NOT NULL,
	"admit_per_minute" integer NOT NULL,
	"admission_seconds" integer DEFAULT 900 NOT NULL,
	"poll_seconds" integer DEFAULT 5 NOT NULL,
	"joined" bigint DEFAULT 0 NOT NULL,
	"drawn" boolean DEFAULT false NOT NULL,
	"admitted_through" bigint DEFAULT 0 NOT NULL,
	"credit" double precision DEFAULT 0 NOT NULL,
	"sold_out" boolean DEFAULT false NOT NULL,
	"marks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stepped_at" timestamp (3) with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "event_date_queues_positive" CHECK ("event_date_queues"."max_shoppers" > 0 AND "event_date_queues"."admit_per_minute" > 0 AND "event_date_queues"."admission_seconds" > 0 AND "event_date_queues"."poll_seconds" > 0)
);
--> statement-breakpoint
CREATE TABLE "queue_places" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_date_id" integer NOT NULL,
	"number" bigint,
	"draw" double precision NOT NULL,
	"joined_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "waiting_list_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_type_id" integer NOT NULL,
	"email" text NOT NULL,
	"qty" integer NOT NULL,
	"joined_at" timestamp (3) with time zone NOT NULL,
	"offered_at" timestamp (3) with time zone,
	"offer_sale_id" text,
	"offer_expires_at" timestamp (3) with time zone,
	"offer_token" text,
	"opened_at" timestamp (3) with time zone,
	CONSTRAINT "waiting_list_entries_offer_token_unique" UNIQUE("offer_token"),
	CONSTRAINT "waiting_list_entries_qty" CHECK ("waiting_list_entries"."qty" > 0)
);
--> statement-breakpoint
ALTER TABLE "event_date_queues" ADD CONSTRAINT "event_date_queues_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_places" ADD CONSTRAINT "queue_places_event_date_id_event_date_queues_event_date_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_date_queues"("event_date_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "queue_places_date_number" ON "queue_places" USING btree ("event_date_id","number");--> statement-breakpoint
CREATE INDEX "queue_places_unnumbered" ON "queue_places" USING btree ("event_date_id") WHERE "queue_places"."number" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "waiting_list_entries_type_email" ON "waiting_list_entries" USING btree ("ticket_type_id",lower("email"));--> statement-breakpoint
CREATE INDEX "waiting_list_entries_next" ON "waiting_list_entries" USING btree ("ticket_type_id","id") WHERE "waiting_list_entries"."offered_at" IS NULL;