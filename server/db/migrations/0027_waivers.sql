-- An event's activity terms and conditions (its waiver), written by its organiser: a buyer of the
-- event meets the waiver step once paid, and reads the terms at the sale's waiver link.
ALTER TABLE "events" ADD COLUMN "waiver_text" text;