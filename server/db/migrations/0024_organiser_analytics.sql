ALTER TABLE "organisers" ADD COLUMN "ga_measurement_id" text;--> statement-breakpoint
ALTER TABLE "organisers" ADD COLUMN "ga_conversion_id" text;--> statement-breakpoint
ALTER TABLE "organisers" ADD COLUMN "fb_pixel_id" text;--> statement-breakpoint
ALTER TABLE "organisers" ADD COLUMN "ga_ua_properties" text[] DEFAULT '{}'::text[] NOT NULL;