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
