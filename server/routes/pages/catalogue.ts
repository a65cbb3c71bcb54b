/** The catalogue front: all events, one event (its order form) and an organiser's page. */
import type { FastifyInstance } from 'fastify';
import { eventOrderForm, eventsWithPrices, organiserPage, type EventsWithPrices } from '../../domain/catalogue.ts';
import { formatNiceDate } from '../../domain/format.ts';
import { formatMoney } from '../../../contract/money.ts';
import type { AppDeps } from '../../http/deps.ts';
import { noticeText } from '../../http/notices.ts';
import { setReferrerCookie } from '../../http/session.ts';
import { sitePage } from '../../http/sitePage.ts';
import { referrerOfCode } from '../../domain/afterSale.ts';
import { effectiveMaxPerOrder } from '../../domain/limits.ts';
import { maximumWarning, minimumWarning } from '../../../contract/messages/basket.ts';
import { type Html, html, icon, richHtml } from '../../views/html.ts';
import { t } from '../../../i18n/runtime.ts';
import { inActiveLanguage } from '../../../i18n/catalogues.ts';
import { builtScripts } from '../../views/builtScripts.ts';
import { admissionNoticeOf } from '../waitingRoom/gates.ts';

const idParam = (raw: string): number | null => {
  const n = Number(raw);
  return /^\d{1,9}$/.test(raw) && n > 0 ? n : null;
};

export function registerCatalogue(app: FastifyInstance, deps: AppDeps): void {
  const { db, config } = deps;
  /** The order form's script (src/catalogue/orderForm.ts), built by Vite; read once, as the build does not change under a running server. */
  const orderFormScript = builtScripts(config.staticDir, 'order-form.html');
  /** A page with this buyer's basket count in its header (spec 001 §9). */
  const pageFor = sitePage(deps);

  function eventCards({ list, prices }: EventsWithPrices): Html {
    if (list.length === 0) return html`<p>${t('page.events.none')}</p>`;
    return html`<ul class="event-grid" role="list">${list.map(({ event, organiser, firstDate }, i) => {
      const from = prices.get(event.id);
      return html`<li><a class="event-card" href="/event/${event.id}/">
        <img src="${event.thumbnail}" alt="" width="320" height="200"${i > 2 ? html` loading="lazy"` : ''}>
        <div class="event-card__body"><h2 class="event-card__title">${event.title}</h2>
        <span class="muted">${formatNiceDate(firstDate)}</span>
        <span class="muted">${event.venueName}, ${event.city}</span>
        <span class="muted">${t('page.events.by', { name: organiser.name })}</span>
        <span class="event-card__price">${from === undefined ? t('page.events.soldOut') : t('page.events.from', { price: formatMoney(from, event.currency) })}</span></div></a></li>`;
    })}</ul>`;
  }

  app.get('/all-events/', async (request, reply) => {
    const error = noticeText((request.query as { error?: unknown }).error);
    reply.type('text/html; charset=utf-8');
    return pageFor(
      request,
      t('site.allEvents'),
      html`${error ? html`<p class="notice error" role="alert">${inActiveLanguage(error)}</p>` : ''}<h1>${t('page.events.heading')}</h1>${eventCards(await eventsWithPrices(db, null, deps.clock()))}`,
      'events',
    );
  });

  app.get<{ Params: { id: string } }>('/organiser/:id/', async (request, reply) => {
    const id = idParam(request.params.id);
    const found = id ? await organiserPage(db, id, deps.clock()) : null;
    reply.type('text/html; charset=utf-8');
    if (!found)
      return reply
        .status(404)
        .send(await pageFor(request, t('page.notFound'), html`<h1>${t('page.organiser.notFound')}</h1>`));
    const { organiser, events } = found;
    return pageFor(
      request,
      organiser.name,
      html`<h1>${organiser.name}</h1><p>${organiser.description}</p>
      ${organiser.customRefundPolicy ? html`<h2>${t('site.refundPolicy')}</h2><p>${organiser.customRefundPolicy}</p>` : ''}
      <h2>${t('page.organiser.events')}</h2>${eventCards(events)}`,
    );
  });

  app.get<{ Params: { id: string }; Querystring: { error?: string; ticket?: string; ref?: string } }>(
    '/event/:id/',
    async (request, reply) => {
      const id = idParam(request.params.id);
      const row = id ? await eventOrderForm(db, id, deps.clock()) : null;
      reply.type('text/html; charset=utf-8');
      if (!row)
        return reply
          .status(404)
          .send(
            await pageFor(
              request,
              t('page.notFound'),
              html`<h1>${t('page.event.notFound')}</h1><p><a href="/all-events/">${t('page.seeAllEvents')}</a></p>`,
            ),
          );
      // A share link's referral code, checked (purpose, referrer, last day): the tickets this visitor adds are booked through its referrer.
      const referrer = referrerOfCode(config.sessionSecret, request.query.ref, deps.clock());
      if (referrer !== null) setReferrerCookie(request, reply, referrer);
      const { event, organiser, offers: types, vouchers, left, seated } = row;
      // A buyer let in by a queue is told until when their turn lasts.
      const admission = admissionNoticeOf(request);
      // Seated ticket types are chosen seat by seat on their date's seat page.
      const seatDates = [
        ...new Map(types.filter(({ type }) => seated.has(type.id)).map(({ date }) => [date.id, date])).values(),
      ];
      const about = types.find(({ type }) => String(type.id) === request.query.ticket)?.type;
      const error = noticeText(
        request.query.error,
        about && {
          name: about.name,
          min: about.minPerCustomer,
          max: effectiveMaxPerOrder(about.maxCanReserve, event.maxPerOrder, config.maxPerOrder),
        },
      );

      const ticketRows = types.map(({ type, date }) => {
        const available = Math.min(left.get(date.poolId) ?? 0, type.poolId ? (left.get(type.poolId) ?? 0) : Infinity);
        const key = `${event.id}|${date.id}|${type.id}|0`;
        const min = Math.max(1, type.minPerCustomer);
        const max = Math.min(
          effectiveMaxPerOrder(type.maxCanReserve, event.maxPerOrder, config.maxPerOrder),
          available,
        );
        const rules = [
          type.minPerCustomer > 1 ? t('page.event.minimum', { n: type.minPerCustomer }) : '',
          type.maxCanReserve ? t('page.event.maxPerOrder', { n: type.maxCanReserve }) : '',
          type.requiredTickets.length
            ? t('page.event.requires', { tickets: type.requiredTickets.map((g) => g.title).join(', ') })
            : '',
        ].filter(Boolean);
        const notes = [
          type.nonRefundable ? t('page.event.nonRefundable') : '',
          type.offerBuyN ? t('page.event.buyNGetOne', { n: type.offerBuyN }) : '',
        ].filter(Boolean);
        const fee =
          event.hideBookingFee || type.bookingFee === 0
            ? ''
            : type.absorbFee
              ? t('page.event.feeIncluded')
              : t('page.event.fee', { amount: formatMoney(type.bookingFee, event.currency) });
        return html`<li class="offer"><div class="offer__info"><h3 class="offer__name">${type.name}</h3>
        <span class="muted">${formatNiceDate(date.startsAt)}</span>
        ${rules.length + notes.length ? html`<span class="offer__tags">${rules.map((r) => html`<span class="offer__tag offer__tag--rule">${r}</span>`)}${notes.map((n) => html`<span class="offer__tag">${n}</span>`)}</span>` : ''}</div>
        <div class="offer__price">${formatMoney(type.price, event.currency)}${fee ? html`<span class="offer__fee muted">${fee}</span>` : ''}</div>
        ${
          seated.has(type.id)
            ? html`<a class="inline-link offer__seats" href="/events/book_seats/${date.id}/">${t('page.event.chooseSeats')}</a>`
            : available > 0 && max >= min
              ? html`<fieldset class="offer__qty" data-line><input type="hidden" name="ticket[${key}][ticket]" value="${type.id}">
            ${stepper(`ticket[${key}][qty]`, type.name, min, max, `note-t${type.id}`)}</fieldset>`
              : html`<span class="offer__soldout">${t('page.event.soldOut')}</span> <a class="inline-link" href="/waiting-list/${type.id}/">${t('page.event.joinWaitingList')}</a>`
        }</li>`;
      });
      const voucherRows = vouchers.map(
        (v, i) => html`<li class="offer offer--voucher"><div class="offer__info"><h3 class="offer__name">${v.name}</h3>
      <span class="muted">${t('page.event.voucherValidity', { months: v.validityMonths })}</span></div>
      <fieldset class="offer__qty" data-line><input type="hidden" name="gift_voucher[${v.id}][id]" value="${v.id}">
        <fieldset class="value-choice"><legend>${t('page.event.voucherValue', { name: v.name })}</legend>${v.suggestedValues.map(
          (value, j) =>
            html`<label class="choice"><input type="radio" name="gift_voucher[${v.id}][value]" value="${value}"${j === 0 ? html` checked` : ''}>${formatMoney(value, v.currency)}</label>`,
        )}</fieldset>
        ${stepper(`gift_voucher[${v.id}][qty]`, v.name, 1, config.maxPerOrder, `note-v${i}`)}</fieldset></li>`,
      );

      return pageFor(
        request,
        event.title,
        html`${error ? html`<p class="notice error" role="alert">${inActiveLanguage(error)}</p>` : ''}
      ${
        admission
          ? html`<div class="notice" data-admission-until="${admission.until}"><p role="status">${admission.message}</p>
          <form method="post" action="${admission.leavePath}"><button class="button button--secondary" type="submit">${admission.leaveLabel}</button></form></div>`
          : ''
      }
      <div class="event-hero"><img src="${event.thumbnail}" alt="" width="360" height="225"><div class="event-hero__text"><h1>${event.title}</h1>
      <p>${event.description}</p><p class="muted">${event.venueName}, ${event.venueAddress}</p>
      <p class="muted">${richHtml('page.event.by', { name: organiser.name }, { a: (name) => html`<a class="inline-link" href="/organiser/${organiser.id}/">${name}</a>` })}</p></div></div>
      <form method="post" action="/do/checkout/add/" id="add" class="add-form" data-not-a-quantity="${t('page.event.notAQuantity')}" data-nothing-chosen="${t('page.event.nothingChosen')}" novalidate>
      <input type="hidden" name="parent_event_id" value="${event.id}">
      ${seatDates.map((d) => html`<p class="seat-plan-link"><a class="button button--large" href="/events/book_seats/${d.id}/">${t('page.event.chooseSeatsFor', { date: formatNiceDate(d.startsAt) })}</a></p>`)}
      <h2>${t('page.event.tickets')}</h2><ul class="offer-list" role="list">${ticketRows}</ul>
      ${voucherRows.length ? html`<h2>${t('page.event.vouchers')}</h2><ul class="offer-list" role="list">${voucherRows}</ul>` : ''}
      <div class="add-bar"><p class="offer__note" id="add-note" role="status"></p><button class="button button--large" type="submit">${t('page.event.add')}</button></div></form>
      ${orderFormScript}`,
        'events',
      );
    },
  );
}

/**
 * The basket's − / + stepper (the classes of ui/QuantityStepper.tsx) around a plain
 * number input, so the form posts without script. 0 means none; otherwise the quantity runs from
 * the type's minimum to what one order may hold, each limit with the basket's warning for it. The
 * buttons appear once the order form's script (src/catalogue/orderForm.ts) runs.
 */
function stepper(name: string, label: string, min: number, max: number, noteId: string): Html {
  return html`<div class="stepper">
    <button type="button" class="stepper__button" data-step="-1" aria-label="${t('ui.oneFewer', { name: label })}" hidden>${icon('minus')}</button>
    <input class="stepper__input" type="number" inputmode="numeric" name="${name}" value="0" min="0" max="${max}" step="1" data-min="${min}" data-too-few="${minimumWarning(min || 1)}" data-too-many="${maximumWarning(max)}" aria-label="${t('ui.quantityOf', { name: label })}" aria-describedby="${noteId}">
    <button type="button" class="stepper__button" data-step="1" aria-label="${t('ui.oneMore', { name: label })}" hidden>${icon('plus')}</button>
  </div><p class="offer__note" id="${noteId}" aria-live="polite"></p>`;
}
