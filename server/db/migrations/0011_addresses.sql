CREATE TABLE "address_index" (
	"id" serial PRIMARY KEY NOT NULL,
	"line_1" text NOT NULL,
	"line_2" text DEFAULT '' NOT NULL,
	"town" text NOT NULL,
	"postcode" text NOT NULL,
	"country" text NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"search" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "postal_delivery_events" (
	"event_id" integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sale_delivery_addresses" (
	"sale_id" text PRIMARY KEY NOT NULL,
	"user_address_id" integer,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"address_1" text NOT NULL,
	"address_2" text DEFAULT '' NOT NULL,
	"town" text NOT NULL,
	"postcode" text NOT NULL,
	"country" text NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"gift_voucher_from" text DEFAULT '' NOT NULL,
	"gift_voucher_to" text DEFAULT '' NOT NULL,
	"set_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"address_1" text NOT NULL,
	"address_2" text DEFAULT '' NOT NULL,
	"town" text NOT NULL,
	"postcode" text NOT NULL,
	"country" text NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "postal_delivery_events" ADD CONSTRAINT "postal_delivery_events_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_delivery_addresses" ADD CONSTRAINT "sale_delivery_addresses_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_delivery_addresses" ADD CONSTRAINT "sale_delivery_addresses_user_address_id_user_addresses_id_fk" FOREIGN KEY ("user_address_id") REFERENCES "public"."user_addresses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_addresses" ADD CONSTRAINT "user_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "address_index_postcode" ON "address_index" USING btree ("postcode");--> statement-breakpoint
CREATE INDEX "user_addresses_user" ON "user_addresses" USING btree ("user_id","created_at");