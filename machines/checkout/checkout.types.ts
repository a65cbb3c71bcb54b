/**
 * The shapes the checkout machines exchange with the app: events the screens send, the actors
 * the app provides with `.provide()`, and what those actors return. Machines import types only
 * from the wire contract; they never import React, ky or React Query.
 */
import type { Checkout, Step } from '../../contract';
import type { Notice, NoticeKind } from '../../contract/notice.ts';
import type { BasketEvent } from '../basket/basket.types.ts';
import type { ParentCountdownEvent as CountdownEvent } from '../countdown/countdown.machine.ts';
import type { ReservationOutcome, ReserveReply } from '../reservation/reservation.types.ts';

/* The root's children own their events and outputs; the root names them from here. */
export type { BasketEvent, Checkout, CountdownEvent, Notice, NoticeKind, ReservationOutcome, ReserveReply, Step };

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
