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
