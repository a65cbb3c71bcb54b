CREATE TABLE "tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"sale_id" text NOT NULL,
	"sale_reference" text,
	"ticket_type_id" integer NOT NULL,
	"copy" integer NOT NULL,
	"user_id" integer NOT NULL,
	"holder_name" text NOT NULL,
	"seat" text,
	"issued_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "tickets_copy_positive" CHECK ("tickets"."copy" >= 1)
);
--> statement-breakpoint
CREATE TABLE "wallet_deliveries" (
	"sale_id" text PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"sent_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_code" ON "tickets" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_sale_type_copy" ON "tickets" USING btree ("sale_id","ticket_type_id","copy");--> statement-breakpoint
CREATE INDEX "tickets_user" ON "tickets" USING btree ("user_id","id");