CREATE TABLE "charity_download_tokens" (
	"charity_id" integer PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	CONSTRAINT "charity_download_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "gift_aid_declarations" (
	"id" serial PRIMARY KEY NOT NULL,
	"sale_id" text NOT NULL,
	"charity_id" integer NOT NULL,
	"user_id" integer,
	"title" text DEFAULT '' NOT NULL,
	"first_name" text,
	"last_name" text,
	"uk_based" boolean NOT NULL,
	"address1" text DEFAULT '' NOT NULL,
	"postcode" text DEFAULT '' NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"declared_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sale_donations" (
	"sale_id" text PRIMARY KEY NOT NULL,
	"charity_id" integer NOT NULL,
	"sale_reference" text NOT NULL,
	"amount" integer NOT NULL,
	"fee" integer NOT NULL,
	"is_gift_aid" boolean DEFAULT false NOT NULL,
	"subscribe" boolean DEFAULT false NOT NULL,
	CONSTRAINT "sale_donations_amount_positive" CHECK ("sale_donations"."amount" >= 1 AND "sale_donations"."fee" >= 0)
);
--> statement-breakpoint
ALTER TABLE "charity_download_tokens" ADD CONSTRAINT "charity_download_tokens_charity_id_charities_id_fk" FOREIGN KEY ("charity_id") REFERENCES "public"."charities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_aid_declarations" ADD CONSTRAINT "gift_aid_declarations_sale_id_sale_donations_sale_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sale_donations"("sale_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_aid_declarations" ADD CONSTRAINT "gift_aid_declarations_charity_id_charities_id_fk" FOREIGN KEY ("charity_id") REFERENCES "public"."charities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_aid_declarations" ADD CONSTRAINT "gift_aid_declarations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_donations" ADD CONSTRAINT "sale_donations_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_donations" ADD CONSTRAINT "sale_donations_charity_id_charities_id_fk" FOREIGN KEY ("charity_id") REFERENCES "public"."charities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gift_aid_declarations_sale" ON "gift_aid_declarations" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "gift_aid_declarations_charity" ON "gift_aid_declarations" USING btree ("charity_id","declared_at");