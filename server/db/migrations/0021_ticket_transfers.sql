CREATE TABLE "transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"sale_id" text NOT NULL,
	"sender_user_id" integer NOT NULL,
	"ticket_type_id" integer NOT NULL,
	"recipient_name" text NOT NULL,
	"recipient_email" text NOT NULL,
	"qty" integer NOT NULL,
	"is_gift" boolean NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"accept_url" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"send_at" timestamp (3) with time zone NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"accepted_at" timestamp (3) with time zone,
	"recipient_user_id" integer,
	CONSTRAINT "transfers_qty_positive" CHECK ("transfers"."qty" >= 1)
);
--> statement-breakpoint
CREATE TABLE "transfer_tickets" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"transfer_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_sender_user_id_users_id_fk" FOREIGN KEY ("sender_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_recipient_user_id_users_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_tickets" ADD CONSTRAINT "transfer_tickets_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_tickets" ADD CONSTRAINT "transfer_tickets_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_token" ON "transfers" USING btree ("token");--> statement-breakpoint
CREATE INDEX "transfers_sale" ON "transfers" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "transfers_due" ON "transfers" USING btree ("send_at") WHERE "transfers"."sent_at" IS NULL;--> statement-breakpoint
CREATE INDEX "transfer_tickets_transfer" ON "transfer_tickets" USING btree ("transfer_id");
