CREATE TABLE "catalogue_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "version" bigint DEFAULT 1 NOT NULL;
--> statement-breakpoint
INSERT INTO "catalogue_version" ("id", "version") VALUES (1, 1);
--> statement-breakpoint
-- The trigger on every table whose rows belong to a sale (its lines, vouchers, holds, seats,
-- payments, donation, answers, address, tickets…): the write moves the sale's version on, in the
-- writing transaction, so GET checkout's ETag and the checkout built for a version change the
-- moment the write commits, whichever process or function made it.
--
-- A sale row this transaction has already written has its version moved on already (its xmin is
-- this transaction: sale_version_on_update did it), so that row is not written again: a
-- reservation that updates the sale and inserts its holds costs no second row version.
CREATE OR REPLACE FUNCTION bump_sale_version() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  v_xid bigint := txid_current() % 4294967296;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    UPDATE sales SET version = version + 1 WHERE id = NEW.sale_id AND xmin::text::bigint <> v_xid;
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND NEW.sale_id IS DISTINCT FROM OLD.sale_id) THEN
    UPDATE sales SET version = version + 1 WHERE id = OLD.sale_id AND xmin::text::bigint <> v_xid;
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
-- Every update of a sale row moves its version on (unless the update sets the version itself):
-- the code that writes a sale need not remember to.
CREATE OR REPLACE FUNCTION sale_version_on_update() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF NEW.version = OLD.version THEN
    NEW.version := OLD.version + 1;
  END IF;
  RETURN NEW;
END
$fn$;
--> statement-breakpoint
-- A change to a user (their name, e-mail address…) shows in the checkout of each of their sales:
-- their versions move on with it.
CREATE OR REPLACE FUNCTION bump_user_sales_version() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE sales SET version = version + 1 WHERE user_id = NEW.id;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
-- The trigger on every catalogue table the checkout shows (events, dates, ticket types,
-- organisers, codes, vouchers, charities, questions, plans…): each statement that writes one moves
-- the catalogue's version on, in the writing transaction. No buyer's purchase writes these tables
-- (stock is counted in capacity_pools), so the one row is no hot row.
CREATE OR REPLACE FUNCTION bump_catalogue_version() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER sales_version BEFORE UPDATE ON sales FOR EACH ROW EXECUTE FUNCTION sale_version_on_update();
--> statement-breakpoint
CREATE TRIGGER users_sales_version AFTER UPDATE ON users FOR EACH ROW EXECUTE FUNCTION bump_user_sales_version();
--> statement-breakpoint
CREATE TRIGGER sale_lines_sale_version AFTER INSERT OR UPDATE OR DELETE ON sale_lines FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER sale_vouchers_sale_version AFTER INSERT OR UPDATE OR DELETE ON sale_vouchers FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER holds_sale_version AFTER INSERT OR UPDATE OR DELETE ON holds FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER sale_seats_sale_version AFTER INSERT OR UPDATE OR DELETE ON sale_seats FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER sale_payment_details_sale_version AFTER INSERT OR UPDATE OR DELETE ON sale_payment_details FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER sale_donations_sale_version AFTER INSERT OR UPDATE OR DELETE ON sale_donations FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER gift_aid_declarations_sale_version AFTER INSERT OR UPDATE OR DELETE ON gift_aid_declarations FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER instalment_plans_sale_version AFTER INSERT OR UPDATE OR DELETE ON instalment_plans FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER instalments_sale_version AFTER INSERT OR UPDATE OR DELETE ON instalments FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER payments_sale_version AFTER INSERT OR UPDATE OR DELETE ON payments FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER sale_question_answers_sale_version AFTER INSERT OR UPDATE OR DELETE ON sale_question_answers FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER sale_delivery_addresses_sale_version AFTER INSERT OR UPDATE OR DELETE ON sale_delivery_addresses FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER marketing_consents_sale_version AFTER INSERT OR UPDATE OR DELETE ON marketing_consents FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER tickets_sale_version AFTER INSERT OR UPDATE OR DELETE ON tickets FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER transfers_sale_version AFTER INSERT OR UPDATE OR DELETE ON transfers FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER wallet_deliveries_sale_version AFTER INSERT OR UPDATE OR DELETE ON wallet_deliveries FOR EACH ROW EXECUTE FUNCTION bump_sale_version();
--> statement-breakpoint
CREATE TRIGGER organisers_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organisers FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE TRIGGER events_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE TRIGGER event_dates_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON event_dates FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE TRIGGER ticket_types_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ticket_types FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE TRIGGER gift_vouchers_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON gift_vouchers FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE TRIGGER discount_codes_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON discount_codes FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE TRIGGER charities_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON charities FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE TRIGGER organiser_payment_settings_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organiser_payment_settings FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE TRIGGER postal_delivery_events_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON postal_delivery_events FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE TRIGGER event_payment_plans_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON event_payment_plans FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE TRIGGER ticket_questions_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ticket_questions FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE TRIGGER question_intros_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON question_intros FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
