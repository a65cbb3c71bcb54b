/**
 * The events the root checkout machine takes: from the screens, and from its own children (the
 * countdown, the step saver, the basket). Machines import types only from the wire contract and
 * their own children; they never import React, ky or React Query.
 */
import type { Checkout } from '../../contract/checkout.ts';
import type { NoticeKind } from '../../contract/notice.ts';
import type { Step } from '../../contract/steps.ts';

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
