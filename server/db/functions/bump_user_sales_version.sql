-- A change to a user (their name, e-mail address…) shows in the checkout of each of their sales:
-- their versions move on with it.
CREATE OR REPLACE FUNCTION bump_user_sales_version() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE sales SET version = version + 1 WHERE user_id = NEW.id;
  RETURN NULL;
END
$fn$;
