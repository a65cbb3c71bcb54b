-- What an event offers its buyers once they have paid: a livestream address, a reward for each
-- friend who books through a buyer's referral link, and a message from the organiser.
ALTER TABLE "events" ADD COLUMN "access_online" text;
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "reward_text" text;
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "reward_short_text" text;
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "after_sale_message" text;
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_reward_whole" CHECK (("reward_text" IS NULL) = ("reward_short_text" IS NULL));
