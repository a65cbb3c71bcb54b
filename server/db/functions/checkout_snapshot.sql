-- Everything the checkout object shows for one sale, as one JSON value: the sale row, its ticket
-- lines (with type, date, event and organiser rows, in display order), its gift-voucher lines,
-- the applied code, the signed-in user, the basket organisers' other upcoming events, and their
-- charities, and what later steps add to the checkout object:
--   postal_events     how many of the basket's events post their tickets (delivery address rule);
--   questions         the basket's ticket questions, in display order, and
--   intros            the question intros of the basket's events and their organisers;
--   seats             the sale's seats with their section, row, number and hold token, in seat order;
--   payment_settings  the basket organisers' payment settings (contact number, express checkout);
--   plans             the payment plans the basket's events offer, by option.
-- Rows are whole (`to_json(row)`), so a column added to a table reaches the server's Drizzle
-- mapping without touching this function.
--
-- A PL/pgSQL function, rather than the same SELECT sent from the server, because its plan is
-- prepared once per database session and reused: planning this statement on every read cost more
-- than running it, on PGlite and PostgreSQL alike. STABLE: it reads only, in the caller's snapshot.
CREATE OR REPLACE FUNCTION checkout_snapshot(p_sale text, p_user integer, p_now timestamptz) RETURNS json
LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  RETURN (
    WITH basket_lines AS (
      SELECT to_json(l) AS line, to_json(t) AS type, to_json(d) AS date, to_json(e) AS event, to_json(o) AS organiser,
             d.starts_at, t.sort_order, t.id AS type_id, e.id AS event_id, o.id AS organiser_id
      FROM sale_lines l
      JOIN ticket_types t ON t.id = l.ticket_type_id
      JOIN event_dates d ON d.id = t.event_date_id
      JOIN events e ON e.id = d.event_id
      JOIN organisers o ON o.id = e.organiser_id
      WHERE l.sale_id = p_sale
    ),
    basket_vouchers AS (
      SELECT to_json(sv) AS line, to_json(v) AS voucher, to_json(o) AS organiser, sv.id AS line_id, o.id AS organiser_id
      FROM sale_vouchers sv
      JOIN gift_vouchers v ON v.id = sv.gift_voucher_id
      JOIN organisers o ON o.id = v.organiser_id
      WHERE sv.sale_id = p_sale
    ),
    basket_organisers AS (
      SELECT organiser_id FROM basket_lines UNION SELECT organiser_id FROM basket_vouchers
    )
    SELECT json_build_object(
      'sale', (SELECT to_json(s) FROM sales s WHERE s.id = p_sale),
      'lines', (SELECT json_agg(json_build_array(line, type, date, event, organiser) ORDER BY starts_at, sort_order, type_id)
                FROM basket_lines),
      'vouchers', (SELECT json_agg(json_build_array(line, voucher, organiser) ORDER BY line_id) FROM basket_vouchers),
      'code', (SELECT to_json(c) FROM discount_codes c JOIN sales s ON s.discount_code_id = c.id WHERE s.id = p_sale),
      'user', (SELECT to_json(u) FROM users u WHERE u.id = p_user),
      'upcoming', (SELECT json_agg(json_build_array(to_json(e), d.starts_at) ORDER BY d.starts_at)
                   FROM events e
                   JOIN event_dates d ON d.event_id = e.id
                   WHERE e.organiser_id IN (SELECT organiser_id FROM basket_organisers)
                     AND d.starts_at > p_now
                     AND e.id NOT IN (SELECT event_id FROM basket_lines)),
      'charities', (SELECT json_agg(to_json(ch)) FROM charities ch
                    WHERE ch.id IN (SELECT o.charity_id FROM organisers o WHERE o.id IN (SELECT organiser_id FROM basket_organisers))),
      'postal_events', (SELECT count(*)::int FROM postal_delivery_events p WHERE p.event_id IN (SELECT event_id FROM basket_lines)),
      'questions', (SELECT json_agg(to_json(q) ORDER BY q.sort_order, q.id) FROM ticket_questions q
                    WHERE q.ticket_type_id IN (SELECT type_id FROM basket_lines)),
      'intros', (SELECT json_agg(to_json(i) ORDER BY i.id) FROM question_intros i
                 WHERE i.event_id IN (SELECT event_id FROM basket_lines) OR i.organiser_id IN (SELECT organiser_id FROM basket_lines)),
      'seats', (SELECT json_agg(json_build_object('ticketTypeId', x.ticket_type_id, 'section', s.section, 'row', s.row, 'number', s.number,
                                                  'holdToken', x.hold_token)
                                ORDER BY s.section, s.row, s.position)
                FROM sale_seats x JOIN seats s ON s.id = x.seat_id WHERE x.sale_id = p_sale),
      'payment_settings', (SELECT json_agg(to_json(ps)) FROM organiser_payment_settings ps
                           WHERE ps.organiser_id IN (SELECT organiser_id FROM basket_organisers)),
      'plans', (SELECT json_agg(to_json(pp) ORDER BY pp.option) FROM event_payment_plans pp
                WHERE pp.event_id IN (SELECT event_id FROM basket_lines))
    )
  );
END
$fn$;
