/**
 * A local stand-in for Stripe's API, for tests: an HTTP server keeping PaymentIntents and refunds
 * in memory. It answers what the server's Stripe SDK calls (create under an idempotency key,
 * retrieve, cancel, refunds; Bearer secret key, form-encoded bodies, Stripe's error shapes) and
 * what Stripe.js calls from the browser for the Payment Element and confirmPayment (the elements
 * session and the confirmation, with the publishable key and the client secret, CORS open). A
 * confirmation ends in a `payment_intent.succeeded` or `payment_intent.payment_failed` event,
 * signed with the endpoint secret by Stripe's scheme and delivered before the confirmation is
 * answered, so the order of events is the same in every run.
 *
 * It also serves a small Stripe.js (STRIPE_JS, at /endive/stripe.js and /v3/) for browsers that
 * cannot reach js.stripe.com: its Payment Element is one card-number field in the page, and it
 * calls https://api.stripe.com as Stripe.js does; a test routes both hosts here.
 *
 * Test cards, as Stripe's: 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient
 * funds, a number failing Luhn is incorrect; any other number is approved.
 *
 * SetupIntents too: the server makes customers and SetupIntents and reads them back; Stripe.js's
 * confirmSetup saves the card (declined as for a payment) as a PaymentMethod of the customer, which
 * the server reads and charges with a PaymentIntent confirmed at once (4000 0000 0000 0341 is saved
 * and then declined); that PaymentIntent's event is sent after the answer.
 *
 * `npx tsx e2e/fakeStripe.ts` runs it on FAKE_STRIPE_PORT (else the port e2e/servers.ts gives it),
 * delivering events to FAKE_STRIPE_WEBHOOK_URL signed with FAKE_STRIPE_WEBHOOK_SECRET. GET
 * /__fake/state shows what it holds; GET /__fake/health answers once it listens.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import qs from 'qs';
import { servers } from './servers.ts';

export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status:
    | 'requires_payment_method'
    | 'requires_confirmation'
    | 'requires_action'
    | 'processing'
    | 'requires_capture'
    | 'canceled'
    | 'succeeded';
  client_secret: string;
  metadata: Record<string, string>;
  /** The customer and saved card a server-confirmed PaymentIntent (an instalment) charged, else null. */
  customer: string | null;
  payment_method: string | null;
  allowed_payment_method_types: string[];
  payment_method_types: string[];
  last_payment_error: { type: string; code: string; decline_code?: string; message: string } | null;
  latest_charge: string | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  created: number;
  livemode: false;
}

export interface FakeCustomer {
  id: string;
  object: 'customer';
  email: string | null;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

export interface FakeSetupIntent {
  id: string;
  object: 'setup_intent';
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  client_secret: string;
  customer: string | null;
  payment_method: string | null;
  usage: string;
  payment_method_types: string[];
  metadata: Record<string, string>;
  last_setup_error: { type: string; code: string; decline_code?: string; message: string } | null;
  created: number;
  livemode: false;
}

export interface FakePaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: string };
  created: number;
  livemode: false;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  status: 'succeeded';
  created: number;
}

/** A request as it arrived: lowercased headers, the form body or query parsed. */
export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  params: Record<string, unknown>;
}

export interface FakeDelivery {
  type: string;
  intent: string;
  /** The endpoint's HTTP status, or 0 when it could not be reached. */
  status: number;
}

export interface FakeStripeOptions {
  port?: number;
  host?: string;
  /** When set, only this secret key is accepted; otherwise any sk_test_ key. */
  secretKey?: string;
  /** When set, only this publishable key is accepted from the browser; otherwise any pk_test_ key. */
  publishableKey?: string;
  /** The time events are signed at, in milliseconds (the tests' clock); by default the real one. */
  clock?: () => number;
  /** Where events go: an endpoint URL, or a function that delivers them (answering the HTTP status). */
  webhook?: { secret: string; url?: string; deliver?: (payload: string, signature: string) => Promise<number> };
}

export interface FakeStripe {
  url: string;
  port: number;
  intents: Map<string, FakeIntent>;
  customers: Map<string, FakeCustomer>;
  setupIntents: Map<string, FakeSetupIntent>;
  paymentMethods: Map<string, FakePaymentMethod>;
  /** Saves a card on a SetupIntent as a browser's confirmSetup would. */
  confirmSetup(id: string, cardNumber?: string): Promise<FakeSetupIntent | { error: StripeError }>;
  refunds: FakeRefund[];
  requests: FakeRequest[];
  deliveries: FakeDelivery[];
  /** While set, refunds are refused (as Stripe does for a disputed charge). */
  refuseRefunds: boolean;
  /** Takes a card for an intent as a browser's confirmation would, delivering the event unless told not to. */
  confirm(id: string, cardNumber?: string, how?: { deliver?: boolean }): Promise<FakeIntent | { error: StripeError }>;
  close(): Promise<void>;
}

interface StripeError {
  type: 'card_error' | 'invalid_request_error' | 'idempotency_error' | 'api_error';
  code?: string;
  decline_code?: string;
  message: string;
  param?: string;
  payment_intent?: FakeIntent;
  setup_intent?: FakeSetupIntent;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly error: StripeError,
  ) {
    super(error.message);
  }
}

const CARDS: Record<string, { code: string; decline_code?: string; message: string }> = {
  '4000000000000002': { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
};

/** Cards a SetupIntent saves whose later charges are declined (as Stripe's 4000 0000 0000 0341). */
const CHARGE_DECLINES: Record<string, { code: string; decline_code?: string; message: string }> = {
  '4000000000000341': { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
};

const CANCELLABLE: FakeIntent['status'][] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
];

function luhn(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

const token = (n = 24) =>
  randomBytes(n)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, n);

/** Stripe's `Stripe-Signature` scheme: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>">. */
export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex')}`;
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const intents = new Map<string, FakeIntent>();
  const customers = new Map<string, FakeCustomer>();
  const setupIntents = new Map<string, FakeSetupIntent>();
  const paymentMethods = new Map<string, FakePaymentMethod>();
  /** The number behind each saved card, which Stripe never shows. */
  const numbers = new Map<string, string>();
  const refunds: FakeRefund[] = [];
  const requests: FakeRequest[] = [];
  const deliveries: FakeDelivery[] = [];
  /** Idempotency keys per API key: the first request's parameters and answer. */
  const replies = new Map<string, { request: string; status: number; body: unknown }>();
  const refuse = { now: false };
  const clock = options.clock ?? Date.now;
  const now = () => Math.floor(clock() / 1000);
  /** While false, events are kept back (a webhook that has not arrived yet). */
  let delivering = true;

  const missing = (id: string) =>
    new Refusal(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'intent',
      message: `No such payment_intent: '${id}'`,
    });
  const intentOf = (id: string): FakeIntent => {
    const intent = intents.get(id);
    if (!intent) throw missing(id);
    return intent;
  };

  async function send(type: string, intent: FakeIntent): Promise<void> {
    const hook = options.webhook;
    if (!hook || !delivering) return;
    const payload = JSON.stringify({
      id: `evt_${token()}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      type,
      data: { object: intent },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    const signature = stripeSignature(payload, hook.secret, now());
    let status = 0;
    try {
      if (hook.deliver) status = await hook.deliver(payload, signature);
      else if (hook.url) {
        const response = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        });
        status = response.status;
      }
    } catch {
      status = 0;
    }
    deliveries.push({ type, intent: intent.id, status });
  }

  /** `saved`: the card a SetupIntent saved (its later declines apply); `eventFirst` false: the event goes after the answer. */
  async function takeCard(intent: FakeIntent, number: string, saved = false, eventFirst = true): Promise<FakeIntent> {
    const tell = async (type: string) =>
      eventFirst ? send(type, intent) : void setTimeout(() => void send(type, intent), 0);
    if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation') {
      throw new Refusal(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `This PaymentIntent's status is ${intent.status}, so it cannot be confirmed.`,
        payment_intent: intent,
      });
    }
    const digits = number.replace(/[\s-]/g, '');
    if (!luhn(digits))
      throw new Refusal(402, {
        type: 'card_error',
        code: 'incorrect_number',
        message: 'Your card number is incorrect.',
        param: 'number',
        payment_intent: intent,
      });
    const decline = CARDS[digits] ?? (saved ? CHARGE_DECLINES[digits] : undefined);
    if (decline) {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { type: 'card_error', ...decline };
      await tell('payment_intent.payment_failed');
      throw new Refusal(402, { type: 'card_error', ...decline, payment_intent: intent });
    }
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
    intent.latest_charge = `ch_${token()}`;
    await tell('payment_intent.succeeded');
    return intent;
  }

  /** A SetupIntent takes a card: the card is checked as for a payment and, approved, saved to the intent's customer. */
  function saveCard(intent: FakeSetupIntent, number: string): FakeSetupIntent {
    if (intent.status !== 'requires_payment_method') {
      throw new Refusal(400, {
        type: 'invalid_request_error',
        code: 'setup_intent_unexpected_state',
        message: `This SetupIntent's status is ${intent.status}, so it cannot be confirmed.`,
        setup_intent: intent,
      });
    }
    const digits = number.replace(/[\s-]/g, '');
    if (!luhn(digits))
      throw new Refusal(402, {
        type: 'card_error',
        code: 'incorrect_number',
        message: 'Your card number is incorrect.',
        param: 'number',
        setup_intent: intent,
      });
    const decline = CARDS[digits];
    if (decline) {
      intent.last_setup_error = { type: 'card_error', ...decline };
      throw new Refusal(402, { type: 'card_error', ...decline, setup_intent: intent });
    }
    const method: FakePaymentMethod = {
      id: `pm_${token()}`,
      object: 'payment_method',
      type: 'card',
      customer: intent.customer,
      card: {
        brand: digits.startsWith('5') ? 'mastercard' : digits.startsWith('3') ? 'amex' : 'visa',
        last4: digits.slice(-4),
        exp_month: 12,
        exp_year: 2034,
        funding: 'credit',
      },
      created: now(),
      livemode: false,
    };
    paymentMethods.set(method.id, method);
    numbers.set(method.id, digits);
    intent.status = 'succeeded';
    intent.payment_method = method.id;
    intent.last_setup_error = null;
    return intent;
  }

  /** The server's calls: Bearer secret key. */
  function serverKey(headers: Record<string, string>): string {
    const key = /^Bearer (\S+)$/.exec(headers.authorization ?? '')?.[1];
    const accepted = key && (options.secretKey ? key === options.secretKey : /^(sk|rk)_test_/.test(key));
    if (!accepted)
      throw new Refusal(401, {
        type: 'invalid_request_error',
        message: `Invalid API Key provided: ${key ?? '(none)'}`,
      });
    return key;
  }

  /** The browser's calls: the publishable key, and the client secret of an intent in `kept`. */
  function browserHeld<T extends { client_secret: string }>(
    params: Record<string, unknown>,
    kept: Map<string, T>,
    kind: string,
  ): T {
    const key = typeof params.key === 'string' ? params.key : '';
    if (!(options.publishableKey ? key === options.publishableKey : /^pk_test_/.test(key))) {
      throw new Refusal(401, {
        type: 'invalid_request_error',
        message: `Invalid API Key provided: ${key || '(none)'}`,
      });
    }
    const secret = typeof params.client_secret === 'string' ? params.client_secret : '';
    const intent = kept.get(secret.split('_secret_')[0] ?? '');
    if (!intent || intent.client_secret !== secret) {
      throw new Refusal(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'client_secret',
        message: `The client_secret provided does not match any associated ${kind} on this account.`,
      });
    }
    return intent;
  }
  const browserIntent = (params: Record<string, unknown>): FakeIntent => browserHeld(params, intents, 'PaymentIntent');
  const browserSetupIntent = (params: Record<string, unknown>): FakeSetupIntent =>
    browserHeld(params, setupIntents, 'SetupIntent');

  /** What Stripe shows the browser of an intent (no metadata). */
  const publicView = (intent: FakeIntent) => {
    const { metadata: _metadata, ...rest } = intent;
    return rest;
  };

  async function idempotent(
    key: string,
    headers: Record<string, string>,
    request: string,
    work: () => Promise<unknown>,
  ): Promise<{ status: number; body: unknown; replayed: boolean }> {
    const idempotencyKey = headers['idempotency-key'];
    if (!idempotencyKey) return { status: 200, body: await work(), replayed: false };
    const slot = `${key}:${idempotencyKey}`;
    const earlier = replies.get(slot);
    if (earlier) {
      if (earlier.request !== request) {
        throw new Refusal(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        });
      }
      return { status: earlier.status, body: earlier.body, replayed: true };
    }
    try {
      const body = await work();
      replies.set(slot, { request, status: 200, body });
      return { status: 200, body, replayed: false };
    } catch (err) {
      if (err instanceof Refusal) replies.set(slot, { request, status: err.status, body: { error: err.error } });
      throw err;
    }
  }

  async function route(
    method: string,
    path: string,
    headers: Record<string, string>,
    params: Record<string, unknown>,
  ): Promise<{ status: number; body: unknown; replayed?: boolean }> {
    const form = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : undefined);
    const request = `${method} ${path} ${JSON.stringify(params)}`;

    if (method === 'POST' && path === '/v1/payment_intents') {
      const key = serverKey(headers);
      return idempotent(key, headers, request, async () => {
        const amount = Number(form('amount'));
        const currency = form('currency');
        if (!Number.isSafeInteger(amount) || amount < 1)
          throw new Refusal(400, {
            type: 'invalid_request_error',
            code: 'parameter_invalid_integer',
            param: 'amount',
            message: 'Invalid integer: amount',
          });
        if (!currency || !/^[a-z]{3}$/.test(currency))
          throw new Refusal(400, {
            type: 'invalid_request_error',
            code: 'parameter_missing',
            param: 'currency',
            message: 'Missing required param: currency.',
          });
        const types = (params.allowed_payment_method_types ?? params.payment_method_types ?? ['card']) as string[];
        const id = `pi_${token()}`;
        const intent: FakeIntent = {
          id,
          object: 'payment_intent',
          amount,
          amount_received: 0,
          currency,
          status: 'requires_payment_method',
          client_secret: `${id}_secret_${token()}`,
          metadata: (params.metadata as Record<string, string> | undefined) ?? {},
          customer: form('customer') ?? null,
          payment_method: form('payment_method') ?? null,
          allowed_payment_method_types: types,
          payment_method_types: types,
          last_payment_error: null,
          latest_charge: null,
          canceled_at: null,
          cancellation_reason: null,
          created: now(),
          livemode: false,
        };
        intents.set(id, intent);
        const method = form('payment_method');
        if (form('confirm') !== 'true' || !method) return intent;
        // A saved card charged at once (an instalment): it must be the customer's.
        const saved = paymentMethods.get(method);
        if (!saved)
          throw new Refusal(400, {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'payment_method',
            message: `No such PaymentMethod: '${method}'`,
          });
        if (saved.customer !== (form('customer') ?? null)) {
          throw new Refusal(400, {
            type: 'invalid_request_error',
            code: 'payment_method_customer_mismatch',
            param: 'payment_method',
            message: `The PaymentMethod ${method} does not belong to the Customer you supplied.`,
          });
        }
        // The event goes after the answer, as Stripe's do: the server is still inside its own request.
        return takeCard(intent, numbers.get(method) ?? '', true, false);
      });
    }

    if (method === 'POST' && path === '/v1/customers') {
      const key = serverKey(headers);
      return idempotent(key, headers, request, async () => {
        const customer: FakeCustomer = {
          id: `cus_${token(14)}`,
          object: 'customer',
          email: form('email') ?? null,
          metadata: (params.metadata as Record<string, string> | undefined) ?? {},
          created: now(),
          livemode: false,
        };
        customers.set(customer.id, customer);
        return customer;
      });
    }

    if (method === 'POST' && path === '/v1/setup_intents') {
      const key = serverKey(headers);
      return idempotent(key, headers, request, async () => {
        const customer = form('customer') ?? null;
        if (customer !== null && !customers.has(customer))
          throw new Refusal(400, {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'customer',
            message: `No such customer: '${customer}'`,
          });
        const id = `seti_${token()}`;
        const types = (params.payment_method_types ?? ['card']) as string[];
        const intent: FakeSetupIntent = {
          id,
          object: 'setup_intent',
          status: 'requires_payment_method',
          client_secret: `${id}_secret_${token()}`,
          customer,
          payment_method: null,
          usage: form('usage') ?? 'off_session',
          payment_method_types: types,
          metadata: (params.metadata as Record<string, string> | undefined) ?? {},
          last_setup_error: null,
          created: now(),
          livemode: false,
        };
        setupIntents.set(id, intent);
        return intent;
      });
    }

    const oneSetup = /^\/v1\/setup_intents\/([^/]+)(\/confirm)?$/.exec(path);
    if (oneSetup) {
      const id = decodeURIComponent(oneSetup[1]!);
      const confirm = oneSetup[2] === '/confirm';
      const cardNumber = (params.payment_method_data as { card?: { number?: string } } | undefined)?.card?.number ?? '';
      if (headers.authorization) {
        serverKey(headers);
        const intent = setupIntents.get(id);
        if (!intent)
          throw new Refusal(404, {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'intent',
            message: `No such setupintent: '${id}'`,
          });
        if (method === 'GET' && !confirm) return { status: 200, body: intent };
        if (method === 'POST' && confirm) return { status: 200, body: saveCard(intent, cardNumber) };
      } else {
        const intent = browserSetupIntent(params);
        if (intent.id !== id)
          throw new Refusal(404, {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'intent',
            message: `No such setupintent: '${id}'`,
          });
        const { metadata: _metadata, ...shown } = intent;
        if (method === 'GET' && !confirm) return { status: 200, body: shown };
        if (method === 'POST' && confirm) {
          saveCard(intent, cardNumber);
          const { metadata: _m, ...after } = intent;
          return { status: 200, body: after };
        }
      }
    }

    const onePm = /^\/v1\/payment_methods\/([^/]+)$/.exec(path);
    if (onePm && method === 'GET') {
      serverKey(headers);
      const found = paymentMethods.get(decodeURIComponent(onePm[1]!));
      if (!found)
        throw new Refusal(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          param: 'payment_method',
          message: `No such PaymentMethod: '${onePm[1]}'`,
        });
      return { status: 200, body: found };
    }

    const one = /^\/v1\/payment_intents\/([^/]+)(\/cancel|\/confirm)?$/.exec(path);
    if (one) {
      const id = decodeURIComponent(one[1]!);
      const action = one[2];
      if (headers.authorization) {
        const key = serverKey(headers);
        if (method === 'GET' && !action) return { status: 200, body: intentOf(id) };
        if (method === 'POST' && action === '/cancel') {
          return idempotent(key, headers, request, async () => {
            const intent = intentOf(id);
            if (!CANCELLABLE.includes(intent.status)) {
              throw new Refusal(400, {
                type: 'invalid_request_error',
                code: 'payment_intent_unexpected_state',
                message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELLABLE.join(', ')}.`,
                payment_intent: intent,
              });
            }
            intent.status = 'canceled';
            intent.canceled_at = now();
            intent.cancellation_reason = form('cancellation_reason') ?? null;
            await send('payment_intent.canceled', intent);
            return intent;
          });
        }
        if (method === 'POST' && action === '/confirm') {
          const intent = intentOf(id);
          const number =
            (params.payment_method_data as { card?: { number?: string } } | undefined)?.card?.number ??
            form('payment_method') ??
            '';
          return { status: 200, body: await takeCard(intent, number === 'pm_card_visa' ? '4242424242424242' : number) };
        }
      } else {
        const intent = browserIntent(params);
        if (intent.id !== id) throw missing(id);
        if (method === 'GET' && !action) return { status: 200, body: publicView(intent) };
        if (method === 'POST' && action === '/confirm') {
          const number = (params.payment_method_data as { card?: { number?: string } } | undefined)?.card?.number ?? '';
          return { status: 200, body: publicView(await takeCard(intent, number)) };
        }
      }
    }

    if (method === 'GET' && path === '/v1/elements/sessions' && params.type === 'setup_intent') {
      const intent = browserSetupIntent(params);
      const { metadata: _metadata, ...shown } = intent;
      return {
        status: 200,
        body: {
          object: 'elements_session',
          id: `elements_session_${token(12)}`,
          livemode: false,
          payment_method_preference: {
            object: 'payment_method_preference',
            type: 'setup_intent',
            ordered_payment_method_types: ['card'],
            setup_intent: shown,
          },
        },
      };
    }

    if (method === 'GET' && path === '/v1/elements/sessions') {
      const intent = browserIntent(params);
      return {
        status: 200,
        body: {
          object: 'elements_session',
          id: `elements_session_${token(12)}`,
          livemode: false,
          payment_method_preference: {
            object: 'payment_method_preference',
            type: 'payment_intent',
            ordered_payment_method_types: ['card'],
            payment_intent: publicView(intent),
          },
        },
      };
    }

    if (method === 'POST' && path === '/v1/refunds') {
      const key = serverKey(headers);
      return idempotent(key, headers, request, async () => {
        const id = form('payment_intent') ?? '';
        const intent = intentOf(id);
        const already = refunds.filter((r) => r.payment_intent === id).reduce((sum, r) => sum + r.amount, 0);
        const amount = form('amount') === undefined ? intent.amount_received - already : Number(form('amount'));
        if (refuse.now)
          throw new Refusal(400, {
            type: 'invalid_request_error',
            code: 'charge_disputed',
            message: `Charge ${intent.latest_charge ?? id} has been disputed; it cannot be refunded.`,
          });
        if (intent.status !== 'succeeded') {
          throw new Refusal(400, {
            type: 'invalid_request_error',
            code: 'charge_not_refundable',
            message: `This PaymentIntent (${id}) does not have a successful charge to refund.`,
          });
        }
        if (!Number.isSafeInteger(amount) || amount < 1 || amount > intent.amount_received - already) {
          throw new Refusal(400, {
            type: 'invalid_request_error',
            code: 'amount_too_large',
            param: 'amount',
            message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${intent.amount_received - already})`,
          });
        }
        const refund: FakeRefund = {
          id: `re_${token()}`,
          object: 'refund',
          amount,
          currency: intent.currency,
          payment_intent: id,
          status: 'succeeded',
          created: now(),
        };
        refunds.push(refund);
        return refund;
      });
    }

    if (method === 'GET' && path === '/__fake/health') return { status: 200, body: { ok: true } };
    if (method === 'GET' && path === '/__fake/state') {
      return {
        status: 200,
        body: {
          intents: [...intents.values()],
          refunds,
          deliveries,
          customers: [...customers.values()],
          setupIntents: [...setupIntents.values()],
          paymentMethods: [...paymentMethods.values()],
        },
      };
    }
    if (method === 'GET' && (/^\/[a-z0-9]+\/stripe\.js$/.test(path) || path === '/v3' || path === '/v3/'))
      return { status: 200, body: STRIPE_JS };

    throw new Refusal(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      );
      const cors = {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': 'content-type, authorization, stripe-version',
        'access-control-allow-methods': 'GET, POST',
      };
      if (method === 'OPTIONS') {
        res.writeHead(204, cors).end();
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const params = (method === 'GET' ? qs.parse(url.search.slice(1)) : qs.parse(raw)) as Record<string, unknown>;
      if (url.pathname.startsWith('/v1/')) requests.push({ method, path: url.pathname, headers, params });
      route(method, url.pathname, headers, params)
        .catch((err: unknown) => {
          if (err instanceof Refusal) return { status: err.status, body: { error: err.error } };
          return { status: 500, body: { error: { type: 'api_error', message: String(err) } } };
        })
        .then(({ status, body, replayed }: { status: number; body: unknown; replayed?: boolean }) => {
          const script = typeof body === 'string';
          res.writeHead(status, {
            ...cors,
            'content-type': script ? 'application/javascript; charset=utf-8' : 'application/json',
            'request-id': `req_${token(14)}`,
            ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
          });
          res.end(script ? body : JSON.stringify(body));
        });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    intents,
    customers,
    setupIntents,
    paymentMethods,
    async confirmSetup(id, cardNumber = '4242424242424242') {
      const intent = setupIntents.get(id);
      if (!intent)
        return {
          error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such setupintent: '${id}'` },
        };
      try {
        return saveCard(intent, cardNumber);
      } catch (err) {
        if (err instanceof Refusal) return { error: err.error };
        throw err;
      }
    },
    refunds,
    requests,
    deliveries,
    get refuseRefunds() {
      return refuse.now;
    },
    set refuseRefunds(value: boolean) {
      refuse.now = value;
    },
    async confirm(id, cardNumber = '4242424242424242', how = {}) {
      delivering = how.deliver !== false;
      try {
        return await takeCard(intentOf(id), cardNumber);
      } catch (err) {
        if (err instanceof Refusal) return { error: err.error };
        throw err;
      } finally {
        delivering = true;
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Stripe.js as far as the Payment Element, confirmPayment and confirmSetup go, against https://api.stripe.com:
 * the elements session checks the client secret before the card field is shown; confirmPayment
 * sends the card with the publishable key and the client secret, and on success leaves for the
 * return URL with the PaymentIntent's id, as Stripe.js does. What it was asked is kept on
 * `window.__stripeFake` for tests to read.
 */
export const STRIPE_JS = `(() => {
  const API = 'https://api.stripe.com/v1';
  const seen = (window.__stripeFake = { keys: [], elementsOptions: null, created: null, confirms: [], setups: [] });
  async function call(method, path, params) {
    const body = new URLSearchParams(params);
    const response = method === 'GET'
      ? await fetch(API + path + '?' + body.toString())
      : await fetch(API + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    return response.json();
  }
  function Stripe(key) {
    seen.keys.push(key);
    function elementsFor(options) {
      const clientSecret = options.clientSecret;
      const type = String(clientSecret).startsWith('seti_') ? 'setup_intent' : 'payment_intent';
      const session = call('GET', '/elements/sessions', { key, client_secret: clientSecret, type }).catch((e) => ({ error: { type: 'api_connection_error', message: String(e) } }));
      let container = null;
      let ready = false;
      const handlers = {};
      const fire = (name, extra) => (handlers[name] || []).forEach((h) => h(Object.assign({ elementType: 'payment' }, extra)));
      const element = {
        mount(node) {
          container = typeof node === 'string' ? document.querySelector(node) : node;
          session.then((answer) => {
            if (!container) return;
            if (answer.error) { fire('loaderror', { error: answer.error }); return; }
            const label = document.createElement('label');
            label.className = 'field';
            const text = document.createElement('span');
            text.className = 'field__label';
            text.textContent = 'Card number (Stripe)';
            const input = document.createElement('input');
            input.className = 'input';
            input.autocomplete = 'cc-number';
            label.append(text, input);
            container.append(label);
            ready = true;
            fire('ready');
          });
        },
        on(name, h) { (handlers[name] = handlers[name] || []).push(h); if (name === 'ready' && ready) setTimeout(() => h({ elementType: 'payment' }), 0); return element; },
        off(name, h) { handlers[name] = (handlers[name] || []).filter((x) => x !== h); return element; },
        update() {},
        unmount() {},
        destroy() { if (container) container.replaceChildren(); container = null; },
      };
      const elements = { create(type) { seen.created = type; return element; }, getElement() { return element; }, update() {}, fetchUpdates() { return Promise.resolve({}); } };
      return { elements, element, clientSecret, numberOf: () => (container && container.querySelector('input') ? container.querySelector('input').value.replace(/\\s/g, '') : '') };
    }
    let current = null;
    return {
      elements(options) {
        seen.elementsOptions = options;
        current = elementsFor(options);
        return current.elements;
      },
      createToken() {}, createPaymentMethod() {}, confirmCardPayment() {},
      _registerWrapper() {}, registerAppInfo() {},
      async confirmPayment(params) {
        const number = current.numberOf();
        const returnUrl = params.confirmParams.return_url;
        seen.confirms.push({ returnUrl, number, sameElements: params.elements === current.elements });
        if (!number) return { error: { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' } };
        const id = current.clientSecret.split('_secret_')[0];
        let answer;
        try {
          answer = await call('POST', '/payment_intents/' + encodeURIComponent(id) + '/confirm', {
            key,
            client_secret: current.clientSecret,
            return_url: returnUrl,
            'payment_method_data[type]': 'card',
            'payment_method_data[card][number]': number,
          });
        } catch (e) {
          return { error: { type: 'api_connection_error', message: 'We could not reach Stripe. Please try again.' } };
        }
        if (answer.error) return { error: answer.error };
        if (answer.status === 'succeeded' || answer.status === 'processing') {
          const back = new URL(returnUrl);
          back.searchParams.set('payment_intent', answer.id);
          back.searchParams.set('payment_intent_client_secret', current.clientSecret);
          back.searchParams.set('redirect_status', 'succeeded');
          window.location.assign(back.href);
          return new Promise(() => {});
        }
        return { error: { type: 'api_error', message: 'This payment needs a step the stand-in does not take.' } };
      },
      async confirmSetup(params) {
        const number = current.numberOf();
        const returnUrl = params.confirmParams && params.confirmParams.return_url;
        seen.setups.push({ returnUrl, number, redirect: params.redirect || null, sameElements: params.elements === current.elements });
        if (!number) return { error: { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' } };
        const id = current.clientSecret.split('_secret_')[0];
        let answer;
        try {
          answer = await call('POST', '/setup_intents/' + encodeURIComponent(id) + '/confirm', {
            key,
            client_secret: current.clientSecret,
            return_url: returnUrl || '',
            'payment_method_data[type]': 'card',
            'payment_method_data[card][number]': number,
          });
        } catch (e) {
          return { error: { type: 'api_connection_error', message: 'We could not reach Stripe. Please try again.' } };
        }
        if (answer.error) return { error: answer.error };
        if (answer.status !== 'succeeded') return { error: { type: 'api_error', message: 'This card needs a step the stand-in does not take.' } };
        if (params.redirect === 'if_required') return { setupIntent: answer };
        const back = new URL(returnUrl);
        back.searchParams.set('setup_intent', answer.id);
        back.searchParams.set('setup_intent_client_secret', current.clientSecret);
        back.searchParams.set('redirect_status', 'succeeded');
        window.location.assign(back.href);
        return new Promise(() => {});
      },
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();`;

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const env = process.env;
  const secret = env.FAKE_STRIPE_WEBHOOK_SECRET;
  const fake = await startFakeStripe({
    port: Number(env.FAKE_STRIPE_PORT ?? servers.fakeStripe),
    ...(env.FAKE_STRIPE_SECRET_KEY ? { secretKey: env.FAKE_STRIPE_SECRET_KEY } : {}),
    ...(env.FAKE_STRIPE_PUBLISHABLE_KEY ? { publishableKey: env.FAKE_STRIPE_PUBLISHABLE_KEY } : {}),
    ...(secret && env.FAKE_STRIPE_WEBHOOK_URL ? { webhook: { secret, url: env.FAKE_STRIPE_WEBHOOK_URL } } : {}),
  });
  console.log(`Stripe stand-in listening on ${fake.url}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
