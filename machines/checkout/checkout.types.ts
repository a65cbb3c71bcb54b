/**
 * The shapes the checkout machines exchange with the app: events the screens send, the actors
 * the app provides with `.provide()`, and what those actors return. Machines import types only
 * from the wire contract; they never import React, ky or React Query.
 */
import type { Checkout, ResponseOf, Step } from '../../contract';

export type { Checkout, Step };

export type NoticeKind = 'error' | 'warning' | 'success' | 'info';

/** A message shown to the buyer: toasts (persistent until dismissed) and step notices. */
export interface Notice {
  id: number;
  kind: NoticeKind;
  text: string;
}

/* ---------- root machine `checkout` ---------- */

export type CheckoutEvent =
  /** Basket screen: the 'Reserve Basket' button. The screen only enables it when reserving is allowed. */
  | { type: 'RESERVE_CLICKED' }
  /** Captcha step: the widget was solved, expired or failed. */
  | { type: 'CAPTCHA_PASSED'; token: string }
  | { type: 'CAPTCHA_EXPIRED' }
  | { type: 'CAPTCHA_ERRORED'; message: string }
  /** Captcha step: 'Continue'. */
  | { type: 'CAPTCHA_CONTINUE_CLICKED' }
  /** Any later step finished its own work (for steps whose screens come later, their 'Continue'). */
  | { type: 'STEP_COMPLETED' }
  /** 'Edit basket' confirmed in the 'Are you sure?' modal. */
  | { type: 'EDIT_BASKET_CONFIRMED' }
  /** The tab became visible again. */
  | { type: 'TAB_VISIBLE' }
  /** The app read the checkout afresh (any reload): the flow follows the server when the sale has ended. */
  | { type: 'CHECKOUT_RELOADED'; checkout: Checkout }
  | { type: 'NOTICE_DISMISSED'; id: number }
  /** From a child (the basket): a notice for the buyer, kept with the root's notices. */
  | { type: 'NOTICE_RAISED'; kind: NoticeKind; text: string }
  /** Retry after 'Unable to get Checkout data'. */
  | { type: 'RETRY_CLICKED' }
  /** Reserve step, in-app browser: 'Copy link'. */
  | { type: 'COPY_LINK_CLICKED' }
  | { type: 'WHY_TOGGLED' }
  /** From the countdown child. */
  | { type: 'COUNTDOWN_EXPIRED' }
  /** From the step saver child. */
  /** The server saved `state`; its seconds_remaining is the hold's time only for a step that holds tickets. */
  | { type: 'STEP_SAVED'; state: Step; secondsRemaining: number }
  | { type: 'STEP_SAVE_FAILED' };

/** What the reservation child decides, from the reserve_tickets reply. */
export type ReservationOutcome =
  | { type: 'reserved'; saleReference: string; checkoutTime: number; checkout: Checkout }
  | { type: 'captcha'; sitekey: string }
  | { type: 'redirect'; url: string }
  | { type: 'error'; message: string }
  | { type: 'unknown' }
  | { type: 'failed' };

export type ReserveReply = ResponseOf<'reserveTickets'>;

/**
 * Actors and actions the app provides (names are the contract):
 * - loadCheckout: fromPromise<Checkout, void>   fetches (or refetches) GET checkout
 * - reloadCheckout: action                      invalidates ['checkout'] so every view refetches
 * - destroySale: fromPromise<void, void>        POST destroy_sale
 * - reserveTickets: fromPromise<ReserveReply, { captchaToken?: string }>
 * - updateBasketState: fromPromise<{ seconds_remaining: number }, { state: Step }>
 * - navigate: action with { url }                browser navigation for a reserve redirect
 * - copyLink: fromPromise<void, void>            writes the page address to the clipboard
 * - ticker: callback actor sending { type: 'TICK', elapsedMs } every second of real time
 * - updateTicketQuantity, updateGiftVoucherQuantity, updateRefundProtection, setCode,
 *   removeFromBasket, removeGiftVoucherFromBasket: fromPromise wrappers of the calls of those names
 * Delays (spec constants, shrinkable in tests): reserveDelay 300, quantityDebounce 2000,
 * tickInterval 1000, linkCopiedFor 2000.
 */
export type ProvidedActorName =
  | 'loadCheckout'
  | 'destroySale'
  | 'reserveTickets'
  | 'updateBasketState'
  | 'copyLink'
  | 'ticker'
  | 'updateTicketQuantity'
  | 'updateGiftVoucherQuantity'
  | 'updateRefundProtection'
  | 'setCode'
  | 'removeFromBasket'
  | 'removeGiftVoucherFromBasket';

/* ---------- basket child (systemId 'basket'), invoked while on the basket step ---------- */

export type BasketEvent =
  /** The buyer typed a quantity. The line is passed so the rules can be checked against it. */
  | { type: 'QUANTITY_CHANGED'; ticketId: number; qty: number; maxCanReserve: number; minPerCustomer: number }
  | { type: 'GIFT_VOUCHER_QUANTITY_CHANGED'; giftVoucherId: number; qty: number; value: number }
  | { type: 'TICKET_REMOVED'; ticketId: number }
  | { type: 'GIFT_VOUCHER_REMOVED'; giftVoucherId: number; value: number }
  | { type: 'REFUND_PROTECTION_CHOSEN'; refundProtection: boolean }
  | { type: 'CODE_SUBMITTED'; code: string };

/* ---------- countdown child (systemId 'countdown') ---------- */

export type CountdownEvent =
  /** paymentSecondsRemaining above 0: a payment has started, and the hold is kept that long for it. */
  | { type: 'START'; secondsRemaining: number; paymentSecondsRemaining?: number }
  | { type: 'SYNC'; secondsRemaining: number }
  | { type: 'TICK'; elapsedMs: number }
  | { type: 'STOP' };
