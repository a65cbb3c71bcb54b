CREATE TABLE "question_intros" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer,
	"organiser_id" integer,
	"text" text NOT NULL,
	CONSTRAINT "question_intros_one_owner" CHECK (("question_intros"."event_id" IS NULL) <> ("question_intros"."organiser_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "sale_question_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"sale_id" text NOT NULL,
	"question_id" integer NOT NULL,
	"ticket_type_id" integer NOT NULL,
	"copy" integer,
	"before_or_after" text NOT NULL,
	"answer" jsonb NOT NULL,
	"answered_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_type_id" integer NOT NULL,
	"question" text NOT NULL,
	"type" text NOT NULL,
	"mandatory" boolean DEFAULT false NOT NULL,
	"once_per_checkout" boolean DEFAULT false NOT NULL,
	"osq_id" integer,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"before_or_after" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "question_intros" ADD CONSTRAINT "question_intros_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_intros" ADD CONSTRAINT "question_intros_organiser_id_organisers_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."organisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_question_answers" ADD CONSTRAINT "sale_question_answers_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_question_answers" ADD CONSTRAINT "sale_question_answers_question_id_ticket_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."ticket_questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_question_answers" ADD CONSTRAINT "sale_question_answers_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_questions" ADD CONSTRAINT "ticket_questions_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "question_intros_event" ON "question_intros" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "question_intros_organiser" ON "question_intros" USING btree ("organiser_id");--> statement-breakpoint
CREATE INDEX "sale_question_answers_sale" ON "sale_question_answers" USING btree ("sale_id","before_or_after");--> statement-breakpoint
CREATE INDEX "ticket_questions_ticket_type" ON "ticket_questions" USING btree ("ticket_type_id");