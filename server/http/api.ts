/** The contract's calls, each a thin mapping from a validated request to one domain function. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ensureSale, destroySale, updateBasketState } from '../domain/sales.ts';
import {
  addToBasket,
  removeFromBasket,
  removeGiftVoucher,
  setCode,
  setRefundProtection,
  updateGiftVoucherQuantity,
  updateTicketQuantity,
} from '../domain/basket.ts';
import { buildCheckout } from '../domain/checkout.ts';
import { reserveSale } from '../domain/reserve.ts';
import { captchaRequired } from '../domain/captcha.ts';
import { findUser, toWireUser } from '../domain/users.ts';
import { DomainError } from '../domain/errors.ts';
import { registerCalls, type Handlers } from './calls.ts';
import { saleIdOf, setSaleCookie, userIdOf } from './session.ts';
import type { AppDeps } from './deps.ts';

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !accept.includes('application/json');
}

/** Where a browser form goes back to with a message: the event page it came from, never a foreign URL. */
function backToEvent(request: FastifyRequest, reply: FastifyReply, message: string) {
  const body = (request.body ?? {}) as { parent_event_id?: unknown };
  const eventId = Number(body.parent_event_id);
  const page = Number.isSafeInteger(eventId) && eventId > 0 ? `/event/${eventId}/` : '/all-events/';
  return reply.redirect(`${page}?error=${encodeURIComponent(message)}`, 303);
}

export function registerApi(app: FastifyInstance, deps: AppDeps): void {
  const { db, config, clock } = deps;

  async function saleFor(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const saleId = await ensureSale(db, saleIdOf(request), userIdOf(request));
    setSaleCookie(request, reply, saleId);
    return saleId;
  }

  const handlers: Handlers = {
    getUser: async ({ request }) => {
      const user = await findUser(db, userIdOf(request));
      return { user: user ? toWireUser(user) : null };
    },
    getCheckout: async ({ request, reply }) => {
      reply.header('cache-control', 'no-store');
      return buildCheckout(db, saleIdOf(request), clock(), {
        captchaSitekey: config.captcha === 'never' ? null : deps.captcha.sitekey,
        userId: userIdOf(request),
      });
    },
    updateBasketState: async ({ input, request, reply }) => ({
      seconds_remaining: await updateBasketState(db, await saleFor(request, reply), input.state, clock()),
    }),
    destroySale: async ({ request, reply }) => {
      await destroySale(db, await saleFor(request, reply));
      return { success: true };
    },
    updateTicketQuantity: async ({ input, request, reply }) => {
      await updateTicketQuantity(db, await saleFor(request, reply), input.ticket_id, input.quantity);
      return { success: true };
    },
    updateGiftVoucherQuantity: async ({ input, request, reply }) => {
      await updateGiftVoucherQuantity(db, await saleFor(request, reply), input.gift_voucher_id, input.value, input.qty);
      return { success: true };
    },
    updateRefundProtection: async ({ input, request, reply }) => {
      await setRefundProtection(db, await saleFor(request, reply), input.refund_protection);
      return { success: true };
    },
    setCode: async ({ input, request, reply }) => ({
      code_applied: await setCode(db, await saleFor(request, reply), input.code),
    }),
    removeFromBasket: async ({ input, request, reply }) => {
      await removeFromBasket(db, await saleFor(request, reply), input.ticket_id);
      return { success: true };
    },
    removeGiftVoucherFromBasket: async ({ input, request, reply }) => {
      await removeGiftVoucher(db, await saleFor(request, reply), input.gift_voucher_id, input.value);
      return { success: true };
    },
    reserveTickets: async ({ input, request, reply }) => {
      const saleId = await saleFor(request, reply);
      const now = clock();
      if (await captchaRequired(db, config.captcha, request.ip, now)) {
        const token = input['h-captcha-response'];
        if (!token || !(await deps.captcha.verify(token, request.ip))) {
          return { reserved: false, captcha: true, captcha_sitekey: deps.captcha.sitekey };
        }
      }
      const result = await reserveSale(db, saleId, now, config.checkoutTimeSeconds);
      return result.reserved
        ? {
            reserved: true,
            sale_reference: result.saleReference,
            fresh_reservation: result.freshReservation,
            checkout_time: result.checkoutTime,
          }
        : { reserved: false, error: result.error };
    },
    getCaptchaChallenge: async ({ reply }) => {
      if (!deps.altcha) throw new DomainError(404, 'This site uses hCaptcha; there is no local challenge');
      reply.header('cache-control', 'no-store');
      return (await deps.altcha.challenge()) as { algorithm: string; challenge: string; salt: string; signature: string };
    },
    addToBasket: async ({ input, request, reply }) => {
      const saleId = await saleFor(request, reply);
      const tickets = Object.values(input.ticket ?? {}).map((l) => ({ ticketTypeId: l.ticket, qty: l.qty }));
      const vouchers = Object.entries(input.gift_voucher ?? {}).map(([, v]) => ({ giftVoucherId: v.id, qty: v.qty, value: v.value }));
      try {
        await addToBasket(db, saleId, { tickets, vouchers }, clock());
      } catch (err) {
        if (err instanceof DomainError && wantsHtml(request)) return backToEvent(request, reply, err.message);
        throw err;
      }
      if (wantsHtml(request)) return reply.redirect('/checkout/', 303);
      return { success: true, redirect: '/checkout/' };
    },
  };

  registerCalls(app, handlers, {
    addToBasket: async (request, reply, message) =>
      wantsHtml(request) ? backToEvent(request, reply, message) : reply.status(400).send({ error: message }),
  });
}
