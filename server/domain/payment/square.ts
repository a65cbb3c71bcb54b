/**
 * Square (spec 001 §4, §7 get_square_credentials and pay-with-square): the organiser whose
 * provider is Square is paid through Square. Keyed (SQUARE_APPLICATION_ID, SQUARE_ACCESS_TOKEN,
 * SQUARE_LOCATION_ID), the card is tokenised by Square's Web Payments SDK in the browser and
 * charged with Square's CreatePayment (an idempotency key per sale and attempt); otherwise the
 * sandbox processor tokenises the card and charges it here. Either way the payment is a row of
 * `payments` (provider 'square') settled like every other card payment: booked if the stock is
 * held, refunded if it is gone.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod/mini';
import type { Database } from '../../db/index.ts';
import { SQUARE_SANDBOX_APP_ID, type BillingAddress } from '../../../contract/index.ts';
import { ADDRESS_MESSAGES } from '../../../machines/address/address.messages.ts';
import { PAYMENT_MESSAGES } from '../../../machines/payment/payment.messages.ts';
import { chargeSandboxCard, findSandboxCard } from '../instalments/sandboxCards.ts';
import type { CardProcessor } from './processor.ts';
import { settlePayment, startCardPayment, type Settlement } from './payments.ts';

export interface SquareKeys {
  applicationId: string;
  accessToken: string;
  locationId: string;
}

const envSchema = z.object({
  SQUARE_APPLICATION_ID: z.optional(z.string().check(z.regex(/^(sandbox-)?sq0idp-|^sandbox-sq0idb-|^sq0idb-/, 'must be a Square application id (sq0idp-… or sandbox-sq0idb-…)'))),
  SQUARE_ACCESS_TOKEN: z.optional(z.string().check(z.minLength(20, 'must be a Square access token'))),
  SQUARE_LOCATION_ID: z.optional(z.string().check(z.regex(/^[A-Z0-9]{6,32}$/, 'must be a Square location id'))),
});

/** The Square keys from the environment, when all three are set; a malformed one stops the start. */
export function squareKeys(env: Record<string, string | undefined>): SquareKeys | null {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid configuration. ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  return e.SQUARE_APPLICATION_ID && e.SQUARE_ACCESS_TOKEN && e.SQUARE_LOCATION_ID
    ? { applicationId: e.SQUARE_APPLICATION_ID, accessToken: e.SQUARE_ACCESS_TOKEN, locationId: e.SQUARE_LOCATION_ID }
    : null;
}

const isSandboxApp = (keys: SquareKeys) => keys.applicationId.startsWith('sandbox-');
const apiBase = (keys: SquareKeys) => (isSandboxApp(keys) ? 'https://connect.squareupsandbox.com' : 'https://connect.squareup.com');
/** Square's Web Payments SDK script, which @square/web-sdk loads in the browser. */
export const squareScript = (keys: SquareKeys) => (isSandboxApp(keys) ? 'https://sandbox.web.squarecdn.com/v1/square.js' : 'https://web.squarecdn.com/v1/square.js');
export const SQUARE_VERSION = '2025-01-23';

export interface SquareRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

/** Square caps idempotency keys at 45 characters: a long key is hashed down, keeping it stable. */
function squareKey(key: string): string {
  return key.length <= 45 ? key : Buffer.from(key).toString('base64url').slice(0, 45);
}

/** CreatePayment (POST /v2/payments) for a card token, with the billing address. */
export function createPaymentRequest(
  keys: SquareKeys,
  p: { sourceId: string; amount: number; currency: string; idempotencyKey: string; reference: string | null; address: BillingAddress },
): SquareRequest {
  const billing = {
    ...(p.address.first_name ? { first_name: p.address.first_name } : {}),
    ...(p.address.last_name ? { last_name: p.address.last_name } : {}),
    ...(p.address.address_1 ? { address_line_1: p.address.address_1 } : {}),
    ...(p.address.address_2 ? { address_line_2: p.address.address_2 } : {}),
    ...(p.address.town ? { locality: p.address.town } : {}),
    ...(p.address.state ? { administrative_district_level_1: p.address.state } : {}),
    postal_code: p.address.postcode,
    country: p.address.country_code || 'GB',
  };
  return {
    url: `${apiBase(keys)}/v2/payments`,
    method: 'POST',
    headers: { authorization: `Bearer ${keys.accessToken}`, 'content-type': 'application/json', 'square-version': SQUARE_VERSION },
    body: JSON.stringify({
      idempotency_key: squareKey(p.idempotencyKey),
      source_id: p.sourceId,
      amount_money: { amount: p.amount, currency: p.currency.toUpperCase() },
      location_id: keys.locationId,
      autocomplete: true,
      ...(p.reference ? { reference_id: p.reference } : {}),
      billing_address: billing,
    }),
  };
}

/** RefundPayment (POST /v2/refunds). */
export function refundPaymentRequest(keys: SquareKeys, p: { paymentId: string; amount: number; currency: string; idempotencyKey: string }): SquareRequest {
  return {
    url: `${apiBase(keys)}/v2/refunds`,
    method: 'POST',
    headers: { authorization: `Bearer ${keys.accessToken}`, 'content-type': 'application/json', 'square-version': SQUARE_VERSION },
    body: JSON.stringify({ idempotency_key: squareKey(p.idempotencyKey), payment_id: p.paymentId, amount_money: { amount: p.amount, currency: p.currency.toUpperCase() } }),
  };
}

export type SquareCharge = { status: 'succeeded'; id: string } | { status: 'failed'; message: string } | { status: 'address'; message: string };

/** What charges a Square card token: Square's API, or the sandbox processor. */
export interface SquareGateway {
  credentials: { app_id: string; location_id: string; checkout_js: string };
  charge(p: { sourceId: string; amount: number; currency: string; idempotencyKey: string; reference: string | null; address: BillingAddress; now: Date }): Promise<SquareCharge>;
  refund(p: { paymentId: string; amount: number; currency: string; idempotencyKey: string }): Promise<void>;
}

/** Square's card and address error codes, as the buyer is told them. */
const ADDRESS_CODES = new Set(['ADDRESS_VERIFICATION_FAILURE', 'INVALID_POSTAL_CODE', 'INVALID_LOCATION']);

export function squareApi(keys: SquareKeys, fetchImpl: typeof fetch = fetch): SquareGateway {
  async function send(request: SquareRequest) {
    const response = await fetchImpl(request.url, { method: request.method, headers: request.headers, body: request.body });
    return { ok: response.ok, json: (await response.json()) as { payment?: { id: string; status: string }; errors?: { code: string; detail?: string; category?: string }[] } };
  }
  return {
    credentials: { app_id: keys.applicationId, location_id: keys.locationId, checkout_js: squareScript(keys) },
    async charge(p) {
      const { ok, json } = await send(createPaymentRequest(keys, p));
      if (ok && json.payment && (json.payment.status === 'COMPLETED' || json.payment.status === 'APPROVED')) return { status: 'succeeded', id: json.payment.id };
      const error = json.errors?.[0];
      if (error && ADDRESS_CODES.has(error.code)) return { status: 'address', message: ADDRESS_MESSAGES.unableToFindBilling };
      return { status: 'failed', message: error?.detail ?? PAYMENT_MESSAGES.unableToPay };
    },
    async refund(p) {
      const { ok, json } = await send(refundPaymentRequest(keys, p));
      if (!ok) throw new Error(json.errors?.[0]?.detail ?? 'Square refused the refund');
    },
  };
}

/** Square's sandbox on this server: tokens are the sandbox processor's nonces. */
export function localSquare(db: Database): SquareGateway {
  return {
    credentials: { app_id: SQUARE_SANDBOX_APP_ID, location_id: 'holdfast-sandbox-location', checkout_js: '' },
    async charge(p) {
      const card = await findSandboxCard(db, p.sourceId);
      if (!card || card.kind !== 'nonce') return { status: 'failed', message: 'This card token is not valid. Please enter your card again.' };
      const charged = await chargeSandboxCard(db, { cardId: card.id, amount: p.amount, currency: p.currency, idempotencyKey: p.idempotencyKey, offSession: false, now: p.now });
      if (charged.status === 'requires_action') return { status: 'failed', message: PAYMENT_MESSAGES.unableToPay };
      return charged.status === 'succeeded' ? charged : { status: 'failed', message: charged.message };
    },
    async refund() {},
  };
}

/** The card processor seen by the payments ledger: a Square payment is created when it is charged. */
function ledgerProcessor(gateway: SquareGateway, currency: string): CardProcessor {
  return {
    name: 'square',
    publicKey: gateway.credentials.app_id,
    async createPayment(p) {
      return { id: `sq_${p.idempotencyKey}`, clientSecret: `sq_${randomBytes(16).toString('hex')}` };
    },
    async refund(p) {
      await gateway.refund({ paymentId: p.paymentId, amount: p.amount, currency, idempotencyKey: p.idempotencyKey });
    },
    async retrieve() {
      return null;
    },
  };
}

/** A billing address Square can use: a postcode, and a state in the USA. */
export function squareAddressProblem(address: BillingAddress): string | null {
  if (!address.postcode.trim()) return ADDRESS_MESSAGES.completeAddress;
  if ((address.country_code || 'GB').toUpperCase() === 'US' && !address.state.trim()) return ADDRESS_MESSAGES.unableToFindBilling;
  return null;
}

export type SquareResult = { kind: 'paid'; paymentId: string } | { kind: 'address'; message: string } | { kind: 'failed'; message: string };

/**
 * pay-with-square: the sale's payment for this attempt (one per sale and attempt, keeping the
 * hold while it is taken), Square's charge under the same key, then the settlement.
 */
export async function payWithSquare(
  db: Database,
  gateway: SquareGateway,
  p: { saleId: string; total: number; currency: string; reference: string | null; sourceId: string; address: BillingAddress; now: Date; graceMs: number },
): Promise<SquareResult> {
  const problem = squareAddressProblem(p.address);
  if (problem) return { kind: 'address', message: problem };
  const ledger = ledgerProcessor(gateway, p.currency);
  const payment = await startCardPayment(db, ledger, { saleId: p.saleId, total: p.total, currency: p.currency, now: p.now, graceMs: p.graceMs });
  const charge = await gateway.charge({ sourceId: p.sourceId, amount: payment.amount, currency: payment.currency, idempotencyKey: payment.idempotencyKey, reference: p.reference, address: p.address, now: p.now });
  if (charge.status === 'address') return { kind: 'address', message: charge.message };
  const settled: Settlement = await settlePayment(
    db,
    ledger,
    {
      provider: 'square',
      providerPaymentId: payment.providerPaymentId,
      status: charge.status === 'succeeded' ? 'succeeded' : 'failed',
      amount: payment.amount,
      currency: payment.currency,
      failureMessage: charge.status === 'failed' ? charge.message : null,
    },
    p.now,
  );
  if (settled.effect === 'booked') return { kind: 'paid', paymentId: payment.providerPaymentId };
  if (settled.effect === 'none' && settled.payment.status === 'succeeded') return { kind: 'paid', paymentId: payment.providerPaymentId };
  return { kind: 'failed', message: settled.payment.failureMessage ?? (charge.status === 'failed' ? charge.message : PAYMENT_MESSAGES.unableToPay) };
}
