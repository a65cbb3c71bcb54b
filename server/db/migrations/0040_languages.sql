-- An organiser has a default language for its pages and e-mails, and a buyer keeps the language they chose.
ALTER TABLE "organisers" ADD COLUMN "default_language" text DEFAULT 'en-GB' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text;