-- The basket a reservation reads before it claims (server/domain/reserve.ts): the sale's hold,
-- reference, payment, buyer, code, how many voucher lines, whether it has seats, and its lines
-- with each ticket type's rules and pools, as one JSON value. A PL/pgSQL function, like
-- checkout_snapshot, so that its five-table plan is prepared once per database session rather
-- than on every reservation, the call an on-sale makes most. STABLE: it reads only.
-- Sequential scans are ruled out, as in every reservation function (see claim_hold.sql).
CREATE OR REPLACE FUNCTION reservation_basket(p_sale text) RETURNS json
LANGUAGE plpgsql STABLE SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $fn$
BEGIN
  RETURN (
    SELECT json_build_object(
      'hold_deadline', s.hold_deadline, 'reference', s.reference, 'paid_at', s.paid_at, 'user_id', s.user_id,
      'discount_code_id', s.discount_code_id,
      'vouchers', (SELECT count(*)::int FROM sale_vouchers v WHERE v.sale_id = s.id),
      'has_seats', EXISTS (SELECT 1 FROM sale_seats x WHERE x.sale_id = s.id),
      'lines', COALESCE((
        SELECT json_agg(json_build_object(
          'ticketTypeId', t.id, 'name', t.name, 'qty', l.qty, 'minPerCustomer', t.min_per_customer,
          'requiredTickets', t.required_tickets, 'typePool', t.pool_id, 'datePool', d.pool_id, 'dateId', d.id,
          'maxCanReserve', t.max_can_reserve, 'eventMax', e.max_per_order) ORDER BY t.id)
        FROM sale_lines l
        JOIN ticket_types t ON t.id = l.ticket_type_id
        JOIN event_dates d ON d.id = t.event_date_id
        JOIN events e ON e.id = d.event_id
        WHERE l.sale_id = s.id), '[]'))
    FROM sales s WHERE s.id = p_sale
  );
END
$fn$;
