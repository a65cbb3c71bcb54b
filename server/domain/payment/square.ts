/**
 * Square (spec 001 §4, §7 get_square_credentials and pay-with-square): the organiser whose
 * provider is Square is paid through Square. Keyed (SQUARE_APPLICATION_ID, SQUARE_ACCESS_TOKEN,
 * SQUARE_LOCATION_ID), the card is tokenised by Square's Web Payments SDK in the browser and
 * charged through Square's own SDK (server/providers/square.ts), approved first and completed once
 * the tickets are booked, or cancelled when they cannot be. Otherwise the sandbox processor
 * tokenises the card and charges it here (localSquare). Either way the payment is a row of
 * `payments` (provider 'square') that carries the id of the payment Square took, settled like every
 * other card payment from Square's word on what it took: booked if it is the basket's amount and
 * the stock is held, refunded on that id otherwise.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/index.ts';
import { payments } from '../../db/schema.ts';
import { SQUARE_SANDBOX_APP_ID, type BillingAddress } from '../../../contract/index.ts';
import { ADDRESS_MESSAGES } from '../../../contract/messages/address.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import {
  chargeSandboxCard,
  completeSandboxCharge,
  findSandboxCard,
  findSandboxCharge,
  voidOrRefundSandboxCharge,
} from '../instalments/sandboxCards.ts';
import type { CardProcessor, RetrievedPayment } from './processor.ts';
import { isRefusal } from '../refusal.ts';
import { paymentError, settlePayment, startCardPayment, type Settlement } from './payments.ts';
import type { SeatingProvider } from '../seating/provider.ts';

/** Square caps idempotency keys at 45 characters: a long key is hashed down, keeping it stable. */
export function squareKey(key: string): string {
  return key.length <= 45 ? key : createHash('sha256').update(key).digest('base64url').slice(0, 43);
}

/**
 * Square's answer to a charge. `unknown`: Square gave no verdict on the payment (it could not be
 * reached, or the key was already used for another card): the payment is left as it stands.
 */
export type SquareCharge =
  | { status: 'succeeded'; id: string; amount: number; currency: string }
  | { status: 'failed'; message: string }
  | { status: 'address'; message: string }
  | { status: 'unknown'; message: string };

/** What charges a Square card token: Square's API, or the sandbox processor. */
export interface SquareGateway {
  credentials: { app_id: string; location_id: string; checkout_js: string };
  charge(p: {
    sourceId: string;
    amount: number;
    currency: string;
    idempotencyKey: string;
    reference: string | null;
    address: BillingAddress;
    now: Date;
  }): Promise<SquareCharge>;
  refund(p: { paymentId: string; amount: number; currency: string; idempotencyKey: string }): Promise<void>;
  /** Square's own record of one of its payments (GetPayment); null for one it does not know. */
  retrieve(paymentId: string): Promise<RetrievedPayment | null>;
  /** Voids a payment Square has approved and not completed (CancelPayment); nothing to do for any other. */
  cancel(paymentId: string): Promise<void>;
  /** Takes an approved payment once its tickets are booked (CompletePayment); one completed already is done. */
  complete(paymentId: string): Promise<void>;
}

/** The ledger's placeholder for a payment Square has not taken yet: Square's id is known once it has. */
export const PLACEHOLDER_PREFIX = 'sq_';
export const isPlaceholder = (paymentId: string) => paymentId.startsWith(PLACEHOLDER_PREFIX);

/** Square's sandbox on this server: tokens are the sandbox processor's nonces, and its payments the sandbox's charges. */
export function localSquare(db: Database): SquareGateway {
  const chargeOf = (paymentId: string) =>
    findSandboxCharge(
      db,
      isPlaceholder(paymentId) ? { idempotencyKey: paymentId.slice(PLACEHOLDER_PREFIX.length) } : { id: paymentId },
    );
  return {
    credentials: { app_id: SQUARE_SANDBOX_APP_ID, location_id: 'holdfast-sandbox-location', checkout_js: '' },
    async charge(p) {
      const card = await findSandboxCard(db, p.sourceId);
      if (!card || card.kind !== 'nonce')
        return { status: 'failed', message: 'This card token is not valid. Please enter your card again.' };
      const charged = await chargeSandboxCard(db, {
        cardId: card.id,
        amount: p.amount,
        currency: p.currency,
        idempotencyKey: p.idempotencyKey,
        offSession: false,
        now: p.now,
        autocomplete: false,
      }).catch((err: unknown) => {
        // A key used before for another charge: Square's IDEMPOTENCY_KEY_REUSED, no verdict on this one.
        if (isRefusal(err, 'conflict')) return null;
        throw err;
      });
      if (!charged) return { status: 'unknown', message: PAYMENT_MESSAGES.unableToPay };
      if (charged.status === 'requires_action') return { status: 'failed', message: PAYMENT_MESSAGES.unableToPay };
      return charged.status === 'succeeded'
        ? { status: 'succeeded', id: charged.id, amount: p.amount, currency: p.currency.toUpperCase() }
        : { status: 'failed', message: charged.message };
    },
    async refund(p) {
      const charge = await chargeOf(p.paymentId);
      if (charge) await voidOrRefundSandboxCharge(db, charge.id);
    },
    async retrieve(paymentId) {
      const charge = await chargeOf(paymentId);
      if (!charge) return null;
      const taken = charge.status === 'approved' || charge.status === 'succeeded' || charge.status === 'refunded';
      return {
        id: charge.id,
        status: taken ? 'succeeded' : 'failed',
        amount: charge.amount,
        currency: charge.currency.toUpperCase(),
        failureMessage: charge.failureMessage,
      };
    },
    async cancel(paymentId) {
      const charge = await chargeOf(paymentId);
      if (charge?.status === 'approved') await voidOrRefundSandboxCharge(db, charge.id);
    },
    async complete(paymentId) {
      const charge = await chargeOf(paymentId);
      if (!charge) throw new Error(`The sandbox knows no payment ${paymentId}`);
      await completeSandboxCharge(db, charge.id);
    },
  };
}

/**
 * The card processor seen by the payments ledger. A Square payment exists once its card is charged:
 * until then the ledger's row holds a placeholder id, replaced by Square's payment id as soon as
 * Square answers, so refunds and reads go to the payment Square took.
 */
function ledgerProcessor(gateway: SquareGateway, currency: string): CardProcessor {
  return {
    name: 'square',
    publicKey: gateway.credentials.app_id,
    async createPayment(p) {
      return {
        id: `${PLACEHOLDER_PREFIX}${p.idempotencyKey}`,
        clientSecret: `${PLACEHOLDER_PREFIX}${randomBytes(16).toString('hex')}`,
      };
    },
    async refund(p) {
      await gateway.refund({ paymentId: p.paymentId, amount: p.amount, currency, idempotencyKey: p.idempotencyKey });
    },
    retrieve: (paymentId) => gateway.retrieve(paymentId),
    cancel: (paymentId) => gateway.cancel(paymentId),
  };
}

/** A billing address Square can use: a postcode, and a state in the USA. */
export function squareAddressProblem(address: BillingAddress): string | null {
  if (!address.postcode.trim()) return ADDRESS_MESSAGES.completeAddress;
  if ((address.country_code || 'GB').toUpperCase() === 'US' && !address.state.trim())
    return ADDRESS_MESSAGES.unableToFindBilling;
  return null;
}

export type SquareResult =
  { kind: 'paid'; paymentId: string } | { kind: 'address'; message: string } | { kind: 'failed'; message: string };

/**
 * pay-with-square: the sale's payment for this attempt (one per sale and attempt, keeping the
 * hold while it is taken), Square's charge under the same key, then the settlement.
 */
export async function payWithSquare(
  db: Database,
  gateway: SquareGateway,
  p: {
    saleId: string;
    total: number;
    currency: string;
    reference: string | null;
    sourceId: string;
    address: BillingAddress;
    now: Date;
    graceMs: number;
    seating?: SeatingProvider | null;
  },
): Promise<SquareResult> {
  const problem = squareAddressProblem(p.address);
  if (problem) return { kind: 'address', message: problem };
  const ledger = ledgerProcessor(gateway, p.currency);
  const payment = await startCardPayment(db, ledger, {
    saleId: p.saleId,
    total: p.total,
    currency: p.currency,
    now: p.now,
    graceMs: p.graceMs,
    seating: p.seating ?? null,
  });
  const charge = await gateway.charge({
    sourceId: p.sourceId,
    amount: payment.amount,
    currency: payment.currency,
    idempotencyKey: payment.idempotencyKey,
    reference: p.reference,
    address: p.address,
    now: p.now,
  });
  if (charge.status === 'address') return { kind: 'address', message: charge.message };
  if (charge.status === 'unknown') return { kind: 'failed', message: charge.message };
  // From here on the payment is known by Square's own id: refunds and reads name the payment Square took.
  const providerPaymentId =
    charge.status === 'succeeded'
      ? await keepSquareId(db, payment.id, charge.id)
      : (await currentRow(db, payment.id)).providerPaymentId;
  const settled: Settlement = await settlePayment(
    db,
    ledger,
    charge.status === 'succeeded'
      ? // Square's word on what it took: an amount other than the payment's is refunded, never booked.
        { provider: 'square', providerPaymentId, status: 'succeeded', amount: charge.amount, currency: charge.currency }
      : {
          provider: 'square',
          providerPaymentId,
          status: 'failed',
          amount: payment.amount,
          currency: payment.currency,
          failureMessage: charge.message,
        },
    p.now,
    p.seating ?? null,
  );
  if (settled.effect === 'booked') {
    // Booked: now Square takes the money. Should this fail, Square completes it at the end of its delay.
    await gateway.complete(providerPaymentId).catch(() => undefined);
    return { kind: 'paid', paymentId: providerPaymentId };
  }
  if (settled.effect === 'none' && settled.payment.status === 'succeeded' && settled.payment.outcome !== 'refunded') {
    await gateway.complete(providerPaymentId).catch(() => undefined);
    return { kind: 'paid', paymentId: providerPaymentId };
  }
  // Taken and refunded (the stock went, the basket changed, the sale was paid already): the buyer is told why.
  if (settled.payment.outcome === 'refunded')
    return { kind: 'failed', message: (await paymentError(db, p.saleId)) ?? PAYMENT_MESSAGES.unableToPay };
  if (settled.payment.failureMessage) return { kind: 'failed', message: settled.payment.failureMessage };
  return { kind: 'failed', message: charge.status === 'failed' ? charge.message : PAYMENT_MESSAGES.unableToPay };
}

async function currentRow(db: Database, id: number) {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row!;
}

/** Records Square's payment id on the ledger's row (once: the same charge asked again is the same payment). */
async function keepSquareId(db: Database, id: number, squarePaymentId: string): Promise<string> {
  await db
    .update(payments)
    .set({ providerPaymentId: squarePaymentId })
    .where(and(eq(payments.id, id), eq(payments.provider, 'square')));
  return squarePaymentId;
}
