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
