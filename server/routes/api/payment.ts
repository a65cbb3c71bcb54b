/**
 * The payment step's calls, the card return (/do/checkout/stripe_auth/) and Stripe's webhook:
 * thin mappings onto server/domain/payment. The card processor is Stripe when keyed, else the
 * sandbox processor this server serves (server/routes/sandbox/card.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { offeredMethods, saasBlockingOrganiser, type Checkout } from '../../../contract/index.ts';
import { ADDRESS_MESSAGES } from '../../../contract/messages/address.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import { buildCheckout } from '../../domain/checkout.ts';
import { isRefusal, Refusal } from '../../domain/refusal.ts';
import { findUser } from '../../domain/users.ts';
import { billingPrefill, setAccountDetails, setBillingAddress } from '../../domain/payment/details.ts';
import { claimFreeTickets, holdLost, paymentError, startCardPayment } from '../../domain/payment/payments.ts';
import { opoaUsersOf } from '../../domain/payment/opoaUsers.ts';
import { receiveStripeWebhook, returnFromCard } from '../../domain/payment/webhooks.ts';
import type { PaymentWiring } from '../../providers/index.ts';
import type { Handlers, InvalidHandler } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { replyHoldLost, replyRefusal } from '../../http/refusals.ts';
import { saleIdOf, setSaleCookie, signIn, userIdOf } from '../../http/session.ts';

type PaymentCalls =
  | 'getStripeToken'
  | 'getPaymentError'
  | 'setAccountDetails'
  | 'setBillingAddress'
  | 'getOpoaUsers'
  | 'claimFreeTickets';

export function paymentHandlers(deps: AppDeps, wiring: PaymentWiring): Pick<Handlers, PaymentCalls> {
  const { db, clock } = deps;

  async function saleOf(request: FastifyRequest): Promise<string> {
    const sale = await request.visitorSale();
    if (!sale) throw holdLost();
    return sale.id;
  }
  const checkoutOf = (request: FastifyRequest, saleId: string, now: Date): Promise<Checkout> =>
    buildCheckout(db, saleId, now, { captchaSitekey: null, userId: userIdOf(request) });

  /** Runs a step, answering a lost hold with the body the step sends back to the basket. */
  async function guarded<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (err) {
      if (isRefusal(err, 'hold-lost')) {
        await replyHoldLost(reply, err);
        return undefined;
      }
      throw err;
    }
  }

  return {
    getStripeToken: async ({ request, reply }) =>
      guarded(reply, async () => {
        const saleId = await saleOf(request);
        const now = clock();
        const checkout = await checkoutOf(request, saleId, now);
        const blockedBy = saasBlockingOrganiser(checkout);
        if (blockedBy) throw new Refusal('not-offered', PAYMENT_MESSAGES.stripeToken);
        // Only a method the checkout offers this basket (Square's organisers take cards through Square).
        if (!offeredMethods(checkout, ['stripe']).includes('stripe'))
          throw new Refusal('not-offered', PAYMENT_MESSAGES.cardNotOffered);
        const payment = await startCardPayment(db, wiring.processor, {
          saleId,
          total: checkout.basket_total,
          currency: checkout.currency.code,
          now,
          graceMs: wiring.settings.graceMs,
          seating: deps.seating,
        });
        return { public_key: wiring.processor.publicKey, client_secret: payment.clientSecret };
      }),
    getPaymentError: async ({ request }) => {
      const saleId = saleIdOf(request);
      if (!saleId) return { payment_error: null };
      const [payment_error, billing_address] = await Promise.all([
        paymentError(db, saleId),
        billingPrefill(db, saleId),
      ]);
      return { payment_error, billing_address };
    },
    setBillingAddress: async ({ input, request, reply }) =>
      guarded(reply, async () => {
        const saleId = await saleOf(request);
        const now = clock();
        const checkout = await checkoutOf(request, saleId, now);
        return setBillingAddress(db, {
          saleId,
          address: input.address,
          userId: userIdOf(request),
          ...(input.contact_number !== undefined ? { contactNumber: input.contact_number } : {}),
          phoneRequired: checkout.has_require_phone_number,
          now,
        });
      }),
    setAccountDetails: async ({ input, request, reply }) =>
      guarded(reply, async () => {
        const saleId = await saleOf(request);
        const now = clock();
        const checkout = await checkoutOf(request, saleId, now);
        const signedInUserId = userIdOf(request);
        try {
          const outcome = await setAccountDetails(db, {
            saleId,
            fullname: input.fullname,
            email: input.email,
            ...(input.contact_number !== undefined ? { contactNumber: input.contact_number } : {}),
            phoneRequired: checkout.has_require_phone_number,
            organiserSubscribed: input.organiser_subscribed_marketing ?? {},
            ctSubscribed: input.ct_subscribed ?? false,
            signedInUserId,
            express: checkout.express,
            now,
          });
          // The sale is now the account of an address proven on it: this browser is signed in as that account.
          if (outcome.account && outcome.userId !== signedInUserId) {
            await signIn(request, reply, outcome.userId);
            setSaleCookie(request, reply, saleId);
          }
        } catch (err) {
          if (!isRefusal(err, 'account-exists') && !isRefusal(err, 'sign-in-needed')) throw err;
          // `type: 'sign_in'` (the refusal table's word): the step offers the code sign-in for that address.
          replyRefusal(reply, err, true);
          return undefined;
        }
        return { success: true as const };
      }),
    getOpoaUsers: async ({ request }) => {
      const userId = userIdOf(request);
      const [user, opoa_users] = await Promise.all([
        findUser(db, userId),
        opoaUsersOf(db, { saleId: saleIdOf(request), userId, now: clock() }),
      ]);
      return { opoa_users, full_name: user ? `${user.firstName} ${user.lastName}` : '' };
    },
    claimFreeTickets: async ({ request, reply }) =>
      guarded(reply, async () => {
        const saleId = await saleOf(request);
        const now = clock();
        const checkout = await checkoutOf(request, saleId, now);
        if (checkout.payment_complete) return { success: true as const };
        await claimFreeTickets(db, { saleId, total: checkout.basket_total, now, seating: deps.seating });
        return { success: true as const };
      }),
  };
}

/** A request the contract refuses is answered with the step's own words. */
export const paymentInvalid: Partial<Record<PaymentCalls, InvalidHandler>> = {
  setBillingAddress: async (_request, reply) => reply.status(400).send({ error: ADDRESS_MESSAGES.completeAddress }),
  setAccountDetails: async (_request, reply, message) =>
    reply.status(400).send({
      error: /^Invalid email/.test(message)
        ? PAYMENT_MESSAGES.email
        : /^Invalid fullname/.test(message)
          ? PAYMENT_MESSAGES.fullName
          : /^Invalid contact_number/.test(message)
            ? PAYMENT_MESSAGES.phone
            : PAYMENT_MESSAGES.unableToPay,
    }),
};

/**
 * The card return and Stripe's webhook. The return only reads: the webhook (or the sandbox's own
 * result) has settled the payment; the checkout app then shows what happened.
 */
export function registerPaymentRoutes(app: FastifyInstance, deps: AppDeps, wiring: PaymentWiring): void {
  /**
   * The card return. It changes nothing of its own: when the processor keeps its own record (Stripe)
   * and its webhook has not arrived yet, the record is read and settled exactly as the webhook
   * would, so the buyer does not find the payment step waiting; a replay has no second effect.
   */
  app.get('/do/checkout/stripe_auth/', async (request, reply) => {
    const query = (request.query ?? {}) as { payment_intent?: unknown };
    const id =
      typeof query.payment_intent === 'string' && /^pi_[A-Za-z0-9_]{1,200}$/.test(query.payment_intent)
        ? query.payment_intent
        : null;
    await returnFromCard(deps.db, wiring.processor, id, deps.clock(), deps.seating);
    return reply.redirect('/checkout/', 303);
  });

  const readWebhook = wiring.webhook;
  if (!readWebhook) return;
  void app.register(async (scope) => {
    // The signature covers the raw body, so this route reads it as a string.
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post('/ajax/checkout/stripe/webhook/', async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const signature = request.headers['stripe-signature'];
      const webhook = readWebhook(raw, typeof signature === 'string' ? signature : undefined, deps.clock());
      const receipt = await receiveStripeWebhook(deps.db, wiring.processor, webhook, deps.clock, deps.seating);
      if (receipt.kind === 'refused') return reply.status(400).send({ error: receipt.message });
      return { received: true };
    });
  });
}
