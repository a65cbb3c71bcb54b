/**
 * A bank for instant bank transfer as the payment domain sees it: it creates a payment for an
 * amount under an idempotency key, names the page where the buyer approves it, tells its status,
 * and refunds. Two implementations: the sandbox bank served by this server (its page is
 * server/routes/sandbox/bank.ts) and TrueLayer when keyed (server/providers/truelayer.ts).
 */
import { randomBytes } from 'node:crypto';

export interface CreatedBankPayment {
  id: string;
  /** What the bank's page needs besides the id (TrueLayer's resource token; the sandbox page's key). */
  resourceToken: string;
}

/** The bank's word on a payment: still at the bank, paid, or not. */
export interface BankWord {
  status: 'processing' | 'succeeded' | 'failed';
  failureMessage: string | null;
}

export interface BankBuyer {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
}

export interface BankProvider {
  name: 'truelayer' | 'sandbox_bank';
  createPayment(request: {
    amount: number;
    currency: string;
    idempotencyKey: string;
    saleId: string;
    buyer: BankBuyer;
  }): Promise<CreatedBankPayment>;
  /** The page the buyer is sent to, which sends them back to `returnUri`. */
  paymentPageUrl(payment: { id: string; resourceToken: string; returnUri: string }): string;
  /** The bank's own record (null when it keeps none apart from ours: the sandbox's settle here). */
  retrieve(paymentId: string): Promise<BankWord | null>;
  refund(request: { paymentId: string; amount: number; idempotencyKey: string }): Promise<void>;
}

/**
 * A bank's webhook as its provider read it: signed, fresh and naming a payment the bank has decided
 * (settle, with the event's id when it has one, so a second delivery is taken once), signed and
 * naming nothing to settle (ignored), or refused with why.
 */
export type BankWebhook =
  | { kind: 'settle'; eventId: string | null; paymentId: string; word: BankWord }
  | { kind: 'ignored' }
  | { kind: 'refused'; message: string };

/** A webhook as it arrived: the raw body, its signature header, the path it was posted to and its headers. */
export interface BankWebhookDelivery {
  raw: string;
  signature: string | undefined;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export const SANDBOX_BANK_PATH = '/sandbox/bank/';

/** The sandbox bank: its payments are rows here; its page decides them (approve, approve slowly, cancel). */
export function sandboxBank(): BankProvider {
  return {
    name: 'sandbox_bank',
    async createPayment() {
      return { id: `bank_sandbox_${randomBytes(12).toString('hex')}`, resourceToken: randomBytes(24).toString('hex') };
    },
    paymentPageUrl: ({ resourceToken }) => `${SANDBOX_BANK_PATH}?token=${encodeURIComponent(resourceToken)}`,
    async retrieve() {
      return null;
    },
    // A refund is its row in payment_refunds, written by the caller in the same transaction.
    async refund() {},
  };
}
