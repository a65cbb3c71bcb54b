-- What GET checkout's body for one sale depends on in the database, as a text that changes with
-- every committed write to it, and the sale's hold deadline (the countdown the body shows). The
-- text is the row versions (xmin) of the sale's own rows: the sale, its lines, voucher lines,
-- seats, holds, payment details, donation, Gift Aid declaration and payment plan; of the ticket
-- types, dates, events and organisers its lines show, its gift vouchers and its code; and of the
-- signed-in user, with how many marketing choices their address has made and the latest.
--
-- Nothing is written to know it, so no write pays for it and no write waits on it: a write that
-- inserts or updates a row gives it the writing transaction's own id, which no row read before it
-- carries, and a delete takes a row away, so the text after a committed change is never the text
-- before it (each table's versions are listed in a fixed order, a missing row as '-'). Each part is
-- one lookup by index; as a PL/pgSQL function its plan is prepared once per database session.
-- What the checkout shows of the catalogue beyond these rows (questions, plans, charities, payment
-- settings, other upcoming events) is not in it: the server keeps a body a few seconds at most.
CREATE OR REPLACE FUNCTION checkout_version(p_sale text, p_user integer)
RETURNS TABLE (version text, deadline_ms double precision)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $fn$
BEGIN
  RETURN QUERY
  SELECT concat_ws('/',
      s.xmin::text,
      coalesce((SELECT c.xmin::text FROM discount_codes c WHERE c.id = s.discount_code_id), '-'),
      coalesce((SELECT string_agg(concat_ws(',', l.xmin::text, t.xmin::text, d.xmin::text, e.xmin::text, o.xmin::text), ';' ORDER BY l.ticket_type_id)
                FROM sale_lines l
                JOIN ticket_types t ON t.id = l.ticket_type_id
                JOIN event_dates d ON d.id = t.event_date_id
                JOIN events e ON e.id = d.event_id
                JOIN organisers o ON o.id = e.organiser_id
                WHERE l.sale_id = p_sale), '-'),
      coalesce((SELECT string_agg(v.xmin::text || ',' || g.xmin::text, ';' ORDER BY v.id)
                FROM sale_vouchers v JOIN gift_vouchers g ON g.id = v.gift_voucher_id WHERE v.sale_id = p_sale), '-'),
      coalesce((SELECT string_agg(x.xmin::text, ';' ORDER BY x.seat_id) FROM sale_seats x WHERE x.sale_id = p_sale), '-'),
      coalesce((SELECT string_agg(h.xmin::text, ';' ORDER BY h.xmin::text) FROM holds h WHERE h.sale_id = p_sale), '-'),
      coalesce((SELECT p.xmin::text FROM sale_payment_details p WHERE p.sale_id = p_sale), '-'),
      coalesce((SELECT string_agg(n.xmin::text, ';' ORDER BY n.xmin::text) FROM sale_donations n WHERE n.sale_id = p_sale), '-'),
      coalesce((SELECT a.xmin::text FROM gift_aid_declarations a WHERE a.sale_id = p_sale), '-'),
      coalesce((SELECT i.xmin::text FROM instalment_plans i WHERE i.sale_id = p_sale), '-'),
      coalesce((SELECT string_agg(i.xmin::text, ';' ORDER BY i.seq) FROM instalments i WHERE i.sale_id = p_sale), '-'),
      coalesce((SELECT u.xmin::text || ',' || (SELECT count(*) || ',' || coalesce(max(m.id), 0) FROM marketing_consents m WHERE m.email = u.email)
                FROM users u WHERE u.id = p_user), '-')),
    (extract(epoch FROM s.hold_deadline) * 1000)::double precision
  FROM sales s WHERE s.id = p_sale;
END
$fn$;
--> statement-breakpoint
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
