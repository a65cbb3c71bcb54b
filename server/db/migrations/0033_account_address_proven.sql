-- When an account's address was last proven by its one-time code. Accounts from before proof was
-- kept start unproven: a referral reward waits for their next sign-in with a code.
ALTER TABLE "users" ADD COLUMN "email_proven_at" timestamp (3) with time zone;