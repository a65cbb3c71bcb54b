/**
 * Delivering the tickets (spec 001 §4 Delivery, §7, §9): tickets into the wallet
 * (deliver_to_bitticket), then the wallet by e-mail (deliver_to_wallet); the order-completed
 * screen's simple info; the timings of the delivery screen. Its words are the delivery chart's
 * (contract/messages/delivery.ts).
 */
import { z } from 'zod/mini';
import { call, empty, nullableString } from './primitives.ts';

/** The delivery screen starts 1 s after entry and advances 3 s after completion (spec 001 §9). */
export const DELIVERY_START_DELAY_MS = 1000;
export const DELIVERY_ADVANCE_DELAY_MS = 3000;

/** Where the signed-in buyer finds delivered tickets. */
export const WALLET_PATH = '/account/wallet/';

/** The signed-in buyer's own account: orders, payment plans, transfers, marketing, saved cards. */
export const ACCOUNT_PATH = '/account/';

/** Where a plan's card is changed (and a stopped plan resumed): the account-settings link of the plan's e-mails. */
export function planCardPath(saleReference: string): string {
  return `${ACCOUNT_PATH}plans/${encodeURIComponent(saleReference)}/card/`;
}

const deliveryReply = z.object({ delivery_completed: z.boolean() });

export const deliveryCalls = {
  /** Issues the paid sale's tickets into the buyer's wallet; calling again issues nothing more. */
  deliverToBitticket: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/deliver_to_bitticket/',
    encoding: 'form',
    request: empty,
    response: deliveryReply,
  }),
  /** Sends the wallet (the sale's tickets) to the buyer by e-mail, once. */
  deliverToWallet: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/deliver_to_wallet/',
    encoding: 'form',
    request: empty,
    response: deliveryReply,
  }),
  getSimpleInfo: call({
    method: 'GET',
    path: '/ajax/checkout/checkout/get_simple_info/',
    encoding: 'none',
    request: empty,
    response: z.object({ sale_email: nullableString, sale_reference: nullableString }),
  }),
} as const;
