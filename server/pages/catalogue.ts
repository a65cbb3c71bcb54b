/** The catalogue front: all events, one event (its order form) and an organiser's page. */
import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { eventDates, events, giftVouchers, organisers, ticketTypes } from '../db/schema.ts';
import { poolAvailability } from '../domain/stock.ts';
import { formatNiceDate } from '../domain/format.ts';
import { formatMoney } from '../../src/format/money.ts';
import type { AppDeps } from '../http/deps.ts';
import { html, page, type Html } from './html.ts';

const idParam = (raw: string): number | null => {
  const n = Number(raw);
  return /^\d{1,9}$/.test(raw) && n > 0 ? n : null;
};

export function registerCatalogue(app: FastifyInstance, deps: AppDeps): void {
  const { db, config } = deps;

  async function eventCards(organiserId: number | null): Promise<Html> {
    const list = await db
      .select({
        event: events,
        organiser: organisers,
        firstDate: sql<Date>`min(${eventDates.startsAt})`.mapWith(eventDates.startsAt),
        fromPrice: sql<number>`min(${ticketTypes.price})::int`,
      })
      .from(events)
      .innerJoin(organisers, eq(organisers.id, events.organiserId))
      .innerJoin(eventDates, eq(eventDates.eventId, events.id))
      .innerJoin(ticketTypes, eq(ticketTypes.eventDateId, eventDates.id))
      .where(organiserId ? eq(events.organiserId, organiserId) : undefined)
      .groupBy(events.id, organisers.id)
      .orderBy(sql`min(${eventDates.startsAt})`);
    if (list.length === 0) return html`<p>No events are on sale right now.</p>`;
    return html`<div class="grid">${list.map(
      ({ event, organiser, firstDate, fromPrice }) => html`<a class="card" href="/event/${event.id}/" style="text-decoration:none;color:inherit">
        <img src="${event.thumbnail}" alt="">
        <div class="body"><h2>${event.title}</h2>
        <div class="muted">${formatNiceDate(firstDate)}</div>
        <div class="muted">${event.venueName}, ${event.city}</div>
        <div class="muted">by ${organiser.name}</div>
        <div class="price">from ${formatMoney(fromPrice, event.currency)}</div></div></a>`,
    )}</div>`;
  }

  app.get('/all-events/', async (request, reply) => {
    const error = (request.query as { error?: unknown }).error;
    reply.type('text/html; charset=utf-8');
    return page(
      config.brandName,
      'All events',
      html`${typeof error === 'string' ? html`<p class="notice error">${error}</p>` : ''}<h1>What’s on</h1>${await eventCards(null)}`,
    );
  });

  app.get<{ Params: { id: string } }>('/organiser/:id/', async (request, reply) => {
    const id = idParam(request.params.id);
    const [organiser] = id ? await db.select().from(organisers).where(eq(organisers.id, id)) : [];
    reply.type('text/html; charset=utf-8');
    if (!organiser) return reply.status(404).send(page(config.brandName, 'Not found', html`<h1>Organiser not found</h1>`));
    return page(
      config.brandName,
      organiser.name,
      html`<h1>${organiser.name}</h1><p>${organiser.description}</p>
      ${organiser.customRefundPolicy ? html`<h2>Refund policy</h2><p>${organiser.customRefundPolicy}</p>` : ''}
      <h2>Events</h2>${await eventCards(organiser.id)}`,
    );
  });

  app.get<{ Params: { id: string }; Querystring: { error?: string } }>('/event/:id/', async (request, reply) => {
    const id = idParam(request.params.id);
    const [row] = id
      ? await db.select({ event: events, organiser: organisers }).from(events).innerJoin(organisers, eq(organisers.id, events.organiserId)).where(eq(events.id, id))
      : [];
    reply.type('text/html; charset=utf-8');
    if (!row) return reply.status(404).send(page(config.brandName, 'Not found', html`<h1>Event not found</h1><p><a href="/all-events/">See all events</a></p>`));
    const { event, organiser } = row;
    const types = await db
      .select({ type: ticketTypes, date: eventDates })
      .from(ticketTypes)
      .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
      .where(eq(eventDates.eventId, event.id))
      .orderBy(asc(eventDates.startsAt), asc(ticketTypes.sortOrder));
    const vouchers = await db.select().from(giftVouchers).where(eq(giftVouchers.organiserId, organiser.id));
    const left = await poolAvailability(db, types.flatMap(({ type, date }) => [date.poolId, ...(type.poolId ? [type.poolId] : [])]), deps.clock());
    const error = typeof request.query.error === 'string' ? request.query.error : null;

    const ticketRows = types.map(({ type, date }) => {
      const available = Math.min(left.get(date.poolId) ?? 0, type.poolId ? (left.get(type.poolId) ?? 0) : Infinity);
      const key = `${event.id}|${date.id}|${type.id}|0`;
      const max = Math.max(0, Math.min(type.maxCanReserve || 20, available));
      const notes = [
        type.maxCanReserve ? `max ${type.maxCanReserve} per order` : '',
        type.minPerCustomer > 1 ? `minimum ${type.minPerCustomer}` : '',
        type.requiredTickets.length ? `requires ${type.requiredTickets.map((g) => g.title).join(', ')}` : '',
        type.nonRefundable ? 'non-refundable' : '',
        type.offerBuyN ? `buy ${type.offerBuyN} get 1 free` : '',
      ].filter(Boolean);
      const fee = event.hideBookingFee || type.bookingFee === 0 ? '' : type.absorbFee ? ' (fee included)' : ` + ${formatMoney(type.bookingFee, event.currency)} fee`;
      return html`<tr><td><strong>${type.name}</strong><div class="muted">${formatNiceDate(date.startsAt)}${notes.length ? ` · ${notes.join(' · ')}` : ''}</div></td>
        <td class="price">${formatMoney(type.price, event.currency)}<span class="muted">${fee}</span></td>
        <td>${available > 0
          ? html`<fieldset data-line><input type="hidden" name="ticket[${key}][ticket]" value="${type.id}">
            <label><span class="hide-sm">Qty </span><input type="number" name="ticket[${key}][qty]" min="0" max="${max}" value="0" aria-label="Quantity of ${type.name}"></label></fieldset>`
          : html`<span class="muted">Sold out</span>`}</td></tr>`;
    });
    const voucherRows = vouchers.map(
      (v) => html`<tr><td><strong>${v.name}</strong><div class="muted">Valid for ${v.validityMonths} months</div></td>
      <td colspan="2"><fieldset data-line><input type="hidden" name="gift_voucher[${v.id}][id]" value="${v.id}">
        <select name="gift_voucher[${v.id}][value]" aria-label="Value of ${v.name}">${v.suggestedValues.map((value) => html`<option value="${value}">${formatMoney(value, v.currency)}</option>`)}</select>
        <label><span class="hide-sm">Qty </span><input type="number" name="gift_voucher[${v.id}][qty]" min="0" max="20" value="0" aria-label="Quantity of ${v.name}"></label></fieldset></td></tr>`,
    );

    return page(
      config.brandName,
      event.title,
      html`${error ? html`<p class="notice error">${error}</p>` : ''}
      <div class="hero"><img src="${event.thumbnail}" alt=""><div><h1>${event.title}</h1>
      <p>${event.description}</p><p class="muted">${event.venueName}, ${event.venueAddress}</p>
      <p class="muted">By <a href="/organiser/${organiser.id}/">${organiser.name}</a></p></div></div>
      <form method="post" action="/do/checkout/add/" id="add">
      <input type="hidden" name="parent_event_id" value="${event.id}">
      <h2>Tickets</h2><table>${ticketRows}</table>
      ${voucherRows.length ? html`<h2>Gift vouchers</h2><table>${voucherRows}</table>` : ''}
      <p><button type="submit">Add to basket</button></p></form>
      <script>document.getElementById('add').addEventListener('submit',function(){document.querySelectorAll('fieldset[data-line]').forEach(function(f){var q=f.querySelector('input[type=number]');if(!q||!(Number(q.value)>0))f.disabled=true;});});</script>`,
    );
  });
}
