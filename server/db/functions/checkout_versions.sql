-- checkout_version for several sales at once, each with its signed-in user (null for none): the
-- server asks for the versions of every GET checkout that arrived while its last question was on
-- its way in one round trip. A sale that is gone has no row.
CREATE OR REPLACE FUNCTION checkout_versions(p_sales text[], p_users integer[])
RETURNS TABLE (sale_id text, user_id integer, version text, deadline_ms double precision)
LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  RETURN QUERY
  SELECT x.s, x.u, v.version, v.deadline_ms
  FROM unnest(p_sales, p_users) AS x(s, u)
  CROSS JOIN LATERAL checkout_version(x.s, x.u) v;
END
$fn$;
