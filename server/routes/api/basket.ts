/**
 * The basket's calls: what is in it, its code and refund protection, its reservation and hold, the
 * captcha before reserving, and the checkout and user reads. Each a thin mapping onto one domain function.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { destroySale, newSaleId, PAID_SALE_MESSAGE, updateBasketState } from '../../domain/sales.ts';
import {
  addToBasket,
  removeFromBasket,
  removeGiftVoucher,
  setCode,
  setRefundProtection,
  updateGiftVoucherQuantity,
  updateTicketQuantity,
} from '../../domain/basket.ts';
import { reserveAttempt } from '../../domain/reserve.ts';
import { queuedDatesOf } from '../waitingRoom/gates.ts';
import { extendHold, NOT_HELD_MESSAGE } from '../../domain/hold.ts';
import { captchaAttempt } from '../../domain/captcha.ts';
import { Refusal } from '../../domain/refusal.ts';
import type { Handlers, InvalidHandler } from '../../http/calls.ts';
import { noticeQuery } from '../../http/notices.ts';
import { MAX_ID } from '../../../contract/index.ts';
import { checkoutReads, readUser, sendCheckout } from '../../http/checkoutData.ts';
import { referrerIdOf, saleIdOf, setSaleCookie, userIdOf } from '../../http/session.ts';
import { offerResumeLinkAfter } from '../../http/resumeLink.ts';
import { recordReferrer } from '../../domain/referrals.ts';
import type { AppDeps } from '../../http/deps.ts';
import { slots } from '../../http/slots.ts';
import { inActiveLanguage } from '../../../i18n/catalogues.ts';

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !accept.includes('application/json');
}

/** Where a browser form goes back to with a message: the event page it came from, never a foreign URL. */
function backToEvent(request: FastifyRequest, reply: FastifyReply, query: string) {
  const body = (request.body ?? {}) as { parent_event_id?: unknown };
  const raw = typeof body.parent_event_id === 'string' ? body.parent_event_id : '';
  const page = /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= MAX_ID ? `/event/${raw}/` : '/all-events/';
  return reply.redirect(`${page}?${query}`, 303);
}

const NO_BASKET_MESSAGE = 'Your basket could not be found. Please add your tickets again.';

export { PAID_SALE_MESSAGE };

type BasketCalls =
  | 'getUser'
  | 'getCheckout'
  | 'updateBasketState'
  | 'destroySale'
  | 'updateTicketQuantity'
  | 'updateGiftVoucherQuantity'
  | 'updateRefundProtection'
  | 'setCode'
  | 'removeFromBasket'
  | 'removeGiftVoucherFromBasket'
  | 'reserveTickets'
  | 'extendHold'
  | 'getCaptchaChallenge'
  | 'addToBasket';

export function basketHandlers(deps: AppDeps): Pick<Handlers, BasketCalls> {
  const { db, config, clock } = deps;
  /** Reservations in the database at once from this process (RESERVE_CONCURRENCY): see server/http/slots.ts. */
  const reserving = slots(config.reserveConcurrency);
  const checkouts = checkoutReads(deps);

  /**
   * The visitor's existing sale. Only an add writes a sale; every other change needs one already,
   * so a request without a basket is refused (or answered as empty) without writing anything.
   */
  async function saleFor(request: FastifyRequest): Promise<string> {
    const sale = await request.visitorSale();
    if (!sale) throw new Refusal('not-found', NO_BASKET_MESSAGE);
    return sale.id;
  }
  /** The visitor's sale for a change to its basket or hold, or null when there is none: a paid sale is closed, and says so. */
  async function openSale(request: FastifyRequest): Promise<string | null> {
    const sale = await request.visitorSale();
    if (!sale) return null;
    if (sale.paidAt) throw new Refusal('already-paid', PAID_SALE_MESSAGE);
    return sale.id;
  }
  async function openSaleFor(request: FastifyRequest): Promise<string> {
    const saleId = await openSale(request);
    if (!saleId) throw new Refusal('not-found', NO_BASKET_MESSAGE);
    return saleId;
  }
  const hasSale = async (request: FastifyRequest) => (await request.visitorSale()) !== null;

  return {
    getUser: async ({ request }) => readUser(deps, request),
    // Sent as built (JSON and ETag), 304 while the browser's copy is current.
    getCheckout: async ({ request, reply }) => sendCheckout(request, reply, await checkouts(request)) as never,
    updateBasketState: async ({ input, request }) => ({
      seconds_remaining: (await hasSale(request))
        ? await updateBasketState(db, await saleFor(request), input.state, clock())
        : 0,
    }),
    destroySale: async ({ request }) => {
      if (await hasSale(request)) await destroySale(db, await openSaleFor(request));
      return { success: true };
    },
    updateTicketQuantity: async ({ input, request }) => {
      await updateTicketQuantity(db, await openSaleFor(request), input.ticket_id, input.quantity, {
        maxPerOrder: config.maxPerOrder,
      });
      return { success: true };
    },
    updateGiftVoucherQuantity: async ({ input, request }) => {
      await updateGiftVoucherQuantity(db, await openSaleFor(request), input.gift_voucher_id, input.value, input.qty);
      return { success: true };
    },
    updateRefundProtection: async ({ input, request }) => {
      await setRefundProtection(db, await openSaleFor(request), input.refund_protection);
      return { success: true };
    },
    setCode: async ({ input, request }) => ({
      code_applied: (await hasSale(request)) && (await setCode(db, await openSaleFor(request), input.code, clock())),
    }),
    removeFromBasket: async ({ input, request }) => {
      await removeFromBasket(db, await openSaleFor(request), input.ticket_id, deps.seating);
      return { success: true };
    },
    removeGiftVoucherFromBasket: async ({ input, request }) => {
      await removeGiftVoucher(db, await openSaleFor(request), input.gift_voucher_id, input.value);
      return { success: true };
    },
    reserveTickets: async ({ input, request }) => {
      // The reservation reads the sale itself (a paid one is refused with 409 there).
      const saleId = saleIdOf(request);
      if (!saleId) return { reserved: false, error: inActiveLanguage('Your basket is empty') };
      const now = clock();
      const limits = {
        maxPerOrder: config.maxPerOrder,
        maxHeldPerBuyer: config.maxHeldPerBuyer,
        buyer: { userId: userIdOf(request), ip: request.ip },
        seating: deps.seating,
      };
      const mode = config.captcha;
      // A solved captcha sent with the attempt is checked (and used up) first; whether the attempt
      // needs one, and whether its basket needs a turn in a queue this request does not hold, is
      // found in the reservation's own round trip (reserve_attempt).
      const token = mode === 'never' ? undefined : input['h-captcha-response'];
      const solved = token ? await deps.captcha.verify(token, request.ip) : false;
      const queue = queuedDatesOf(request);
      const result = await reserving.run(() =>
        reserveAttempt(db, saleId, now, config.checkoutTimeSeconds, limits, {
          queued: queue?.dates ?? [],
          captcha: captchaAttempt(mode, request.ip, now, solved),
        }),
      );
      if ('captcha' in result) return { reserved: false, captcha: true, captcha_sitekey: deps.captcha.sitekey };
      if ('queued' in result) return { reserved: false, error: queue!.refusal(result.queued) };
      if (!result.reserved && result.closed) throw new Refusal('already-paid', result.error);
      if (result.reserved && result.freshReservation && userIdOf(request) !== null)
        await offerResumeLinkAfter(deps, request, saleId);
      return result.reserved
        ? {
            reserved: true,
            sale_reference: result.saleReference,
            fresh_reservation: result.freshReservation,
            checkout_time: result.checkoutTime,
          }
        : { reserved: false, error: inActiveLanguage(result.error) };
    },
    extendHold: async ({ request }) => {
      if (!(await hasSale(request))) throw new Refusal('hold-lost', NOT_HELD_MESSAGE);
      const extended = await extendHold(
        db,
        await openSaleFor(request),
        clock(),
        config.checkoutTimeSeconds,
        deps.seating,
      );
      return { seconds_remaining: extended.secondsRemaining, extensions_left: extended.extensionsLeft };
    },
    getCaptchaChallenge: async ({ reply }) => {
      if (!deps.altcha) throw new Refusal('not-found', 'This site uses hCaptcha; there is no local challenge');
      reply.header('cache-control', 'no-store');
      return (await deps.altcha.challenge()) as {
        algorithm: string;
        challenge: string;
        salt: string;
        signature: string;
      };
    },
    addToBasket: async ({ input, request, reply }) => {
      // A paid sale is closed: what is added next starts a new basket.
      const current = saleIdOf(request);
      const saleId = current && !(await request.visitorSale())?.paidAt ? current : newSaleId();
      // Lines left at 0 (none) on the order form are not added.
      const tickets = Object.values(input.ticket ?? {})
        .filter((l) => l.qty > 0)
        .map((l) => ({ ticketTypeId: l.ticket, qty: l.qty, seats: l.seats }));
      const vouchers = Object.values(input.gift_voucher ?? {})
        .filter((v) => v.qty > 0)
        .map((v) => ({ giftVoucherId: v.id, qty: v.qty, value: v.value }));
      try {
        await addToBasket(db, saleId, { tickets, vouchers }, clock(), {
          maxPerOrder: config.maxPerOrder,
          userId: userIdOf(request),
          seating: deps.seating,
        });
      } catch (err) {
        if (err instanceof Refusal && wantsHtml(request)) return backToEvent(request, reply, noticeQuery(err));
        throw err;
      }
      setSaleCookie(request, reply, saleId);
      await recordReferrer(db, saleId, referrerIdOf(request), userIdOf(request));
      if (wantsHtml(request)) return reply.redirect('/checkout/', 303);
      return { success: true, redirect: '/checkout/' };
    },
  };
}

/** A browser's order form that the contract refuses goes back to its event page with a message. */
export const basketInvalid: Partial<Record<BasketCalls, InvalidHandler>> = {
  addToBasket: async (request, reply, message) =>
    wantsHtml(request)
      ? backToEvent(request, reply, 'error=not-added')
      : reply.status(400).send({ error: inActiveLanguage(message) }),
};
