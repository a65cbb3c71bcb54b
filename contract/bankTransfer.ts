/**
 * Instant bank transfer (spec 001 §2 Bank transfer waiting, §4 Bank transfer status, §7, §9): the
 * three TrueLayer calls and the polling constants. Shared by the payment step, the bank-transfer
 * machine and the server, so each number is written once. The waiting screen's words are the
 * bank-transfer chart's (contract/messages/bankTransfer.ts).
 */
import { z } from 'zod/mini';
import { call, done, empty, formText, money, nullableString } from './primitives.ts';

/** Spec 001 §9: first check after 2 s, poll every 1.5 s, messages at 3, 6 and 9 retries, give up at 60. */
export const BANK_FIRST_CHECK_MS = 2000;
export const BANK_POLL_INTERVAL_MS = 1500;
export const BANK_RETRY_THRESHOLDS = { waiting: 3, awaiting: 6, slow: 9, giveUp: 60 } as const;

/** Spec 001 §4: the bank transfer status. */
export const BANK_TRANSFER_STATUSES = ['processing', 'completed', 'error'] as const;
export type BankTransferStatus = (typeof BANK_TRANSFER_STATUSES)[number];

export const truelayerStatusSchema = z.object({
  /** Seconds the tickets are still held for (the payment-in-progress hold included); 0 or less: gone. */
  checkout_expires_in: z.number().check(z.int()),
  payment_completed: z.boolean(),
  reference: nullableString,
  /** What the bank is asked for, in minor units. */
  total: money,
  currency: z.string(),
  truelayer_status_error: nullableString,
  status: z.enum(BANK_TRANSFER_STATUSES),
  /**
   * Not a spec field: the poll interval this server asks for (spec 001 §9's 1.5 s unless the server
   * is configured otherwise, as the end-to-end server is), so the chart's rule stays as it is.
   */
  poll_interval_ms: z.optional(z.number().check(z.int(), z.minimum(100), z.maximum(60_000))),
});
export type TruelayerStatus = z.output<typeof truelayerStatusSchema>;

export const bankTransferCalls = {
  /** Creates the sale's bank payment ahead of the Pay click; a failure removes the method. */
  createTruelayerPayment: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/create_truelayer_payment/',
    encoding: 'form',
    request: empty,
    response: done,
  }),
  /** The bank's page for this payment: the browser goes there. */
  payWithTruelayer: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/pay_with_truelayer/',
    encoding: 'form',
    request: z.object({ contact_number: z.optional(formText(40)) }),
    response: z.object({ auth_url: z.string().check(z.minLength(1)) }),
  }),
  getTruelayerStatus: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/get_truelayer_status/',
    encoding: 'form',
    request: empty,
    response: z.object({ truelayer_status: truelayerStatusSchema }),
  }),
} as const;

/** Where the bank (TrueLayer's hosted page, or the sandbox bank) sends the buyer back. */
export const BANK_RETURN_PATH = '/do/checkout/truelayer_return/';
