CREATE TABLE "capacity_pools" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"capacity" integer NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "capacity_pools_sold_within_capacity" CHECK ("capacity_pools"."sold" >= 0 AND "capacity_pools"."sold" <= "capacity_pools"."capacity")
);
--> statement-breakpoint
CREATE TABLE "charities" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"logo" text NOT NULL,
	"description_html" text NOT NULL,
	"donation_checkout_title" text NOT NULL,
	"donation_options" jsonb NOT NULL,
	"base_fee" integer NOT NULL,
	"booking_fee_bp" integer NOT NULL,
	"booking_fee_includes_vat" boolean NOT NULL,
	"booking_fee_vat_bp" integer NOT NULL,
	"booking_fee_cap" integer
);
--> statement-breakpoint
CREATE TABLE "discount_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"organiser_id" integer,
	"event_id" integer,
	"usage_limit" integer,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "discount_codes_code_unique" UNIQUE("code"),
	CONSTRAINT "discount_codes_used_within_limit" CHECK ("discount_codes"."usage_limit" IS NULL OR "discount_codes"."used" <= "discount_codes"."usage_limit")
);
--> statement-breakpoint
CREATE TABLE "event_dates" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"pool_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"organiser_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"currency" text NOT NULL,
	"venue_name" text NOT NULL,
	"venue_address" text NOT NULL,
	"city" text NOT NULL,
	"thumbnail" text NOT NULL,
	"refund_protection" boolean DEFAULT true NOT NULL,
	"hide_booking_fee" boolean DEFAULT false NOT NULL,
	"timeslot_warning" text
);
--> statement-breakpoint
CREATE TABLE "gift_vouchers" (
	"id" serial PRIMARY KEY NOT NULL,
	"organiser_id" integer NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"min_value" integer NOT NULL,
	"max_value" integer NOT NULL,
	"suggested_values" jsonb NOT NULL,
	"validity_months" integer DEFAULT 12 NOT NULL,
	"thumbnail" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holds" (
	"id" serial PRIMARY KEY NOT NULL,
	"sale_id" text NOT NULL,
	"pool_id" integer NOT NULL,
	"ticket_type_id" integer NOT NULL,
	"qty" integer NOT NULL,
	"deadline" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailing_list" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailing_list_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "organisers" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_saas" boolean DEFAULT false NOT NULL,
	"payment_provider" text,
	"custom_refund_policy" text,
	"charity_id" integer,
	"marketing_signup_message" text DEFAULT '' NOT NULL,
	CONSTRAINT "organisers_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "reservation_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"ip" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sale_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"sale_id" text NOT NULL,
	"ticket_type_id" integer NOT NULL,
	"qty" integer NOT NULL,
	CONSTRAINT "sale_lines_qty_positive" CHECK ("sale_lines"."qty" >= 1)
);
--> statement-breakpoint
CREATE TABLE "sale_vouchers" (
	"id" serial PRIMARY KEY NOT NULL,
	"sale_id" text NOT NULL,
	"gift_voucher_id" integer NOT NULL,
	"value" integer NOT NULL,
	"qty" integer NOT NULL,
	CONSTRAINT "sale_vouchers_qty_positive" CHECK ("sale_vouchers"."qty" >= 1)
);
--> statement-breakpoint
CREATE TABLE "sales" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"state" text DEFAULT 'basket' NOT NULL,
	"currency" text,
	"refund_protection" boolean DEFAULT false NOT NULL,
	"discount_code_id" integer,
	"reference" text,
	"hold_deadline" timestamp (3) with time zone,
	"had_mismatching_currencies" boolean DEFAULT false NOT NULL,
	"basket_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"basket_success" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reserving_error" text,
	"edit_basket_clicked" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_date_id" integer NOT NULL,
	"name" text NOT NULL,
	"price" integer NOT NULL,
	"booking_fee" integer DEFAULT 0 NOT NULL,
	"absorb_fee" boolean DEFAULT false NOT NULL,
	"max_can_reserve" integer DEFAULT 0 NOT NULL,
	"min_per_customer" integer DEFAULT 1 NOT NULL,
	"can_update_quantity" boolean DEFAULT true NOT NULL,
	"non_refundable" boolean DEFAULT false NOT NULL,
	"required_tickets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"offer_buy_n" integer,
	"pool_id" integer,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "used_captchas" (
	"token" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"is_dark_mode" boolean DEFAULT false NOT NULL,
	"subscribed" boolean DEFAULT false NOT NULL,
	"is_event_subscribed" boolean DEFAULT false NOT NULL,
	"view_type" text DEFAULT 'organiser' NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_organiser_id_organisers_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."organisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_dates" ADD CONSTRAINT "event_dates_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_dates" ADD CONSTRAINT "event_dates_pool_id_capacity_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."capacity_pools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_organiser_id_organisers_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."organisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_vouchers" ADD CONSTRAINT "gift_vouchers_organiser_id_organisers_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."organisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_pool_id_capacity_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."capacity_pools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisers" ADD CONSTRAINT "organisers_charity_id_charities_id_fk" FOREIGN KEY ("charity_id") REFERENCES "public"."charities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_lines" ADD CONSTRAINT "sale_lines_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_lines" ADD CONSTRAINT "sale_lines_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_vouchers" ADD CONSTRAINT "sale_vouchers_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_vouchers" ADD CONSTRAINT "sale_vouchers_gift_voucher_id_gift_vouchers_id_fk" FOREIGN KEY ("gift_voucher_id") REFERENCES "public"."gift_vouchers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_pool_id_capacity_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."capacity_pools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "holds_pool_deadline" ON "holds" USING btree ("pool_id","deadline");--> statement-breakpoint
CREATE INDEX "holds_sale" ON "holds" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "reservation_attempts_ip_at" ON "reservation_attempts" USING btree ("ip","at");--> statement-breakpoint
CREATE UNIQUE INDEX "sale_lines_sale_ticket" ON "sale_lines" USING btree ("sale_id","ticket_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sale_vouchers_sale_voucher_value" ON "sale_vouchers" USING btree ("sale_id","gift_voucher_id","value");