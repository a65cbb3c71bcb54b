/**
 * After the sale (spec 001 §2 "Order completed", §7): the buyer's referral link to share, feedback
 * for the organiser, the subscription to important event updates, and where the accommodation map
 * comes from. The screen's words are the order-completed chart's
 * (contract/messages/orderCompleted.ts).
 */
import { z } from 'zod/mini';
import { call, done, empty, nullableString } from './primitives.ts';

/** The longest feedback message the organiser is sent. */
export const FEEDBACK_MAX_LENGTH = 2000;

/** Control characters other than line breaks and tabs, and lone surrogates: a message keeps its lines. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNPRINTABLE_IN_MESSAGE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cs}]/u;

export const feedbackMessage = z.string().check(
  z.refine((s) => s.trim().length > 0, { message: 'must not be empty', abort: true }),
  z.maxLength(FEEDBACK_MAX_LENGTH, `must be at most ${FEEDBACK_MAX_LENGTH} characters`),
  z.refine((s) => !UNPRINTABLE_IN_MESSAGE.test(s), { message: 'must not contain control characters' }),
);

export const afterSaleCalls = {
  /** The signed-in buyer's referral link for the sale's event: the event's page carrying their referral code. */
  getRewardReferrerLink: call({
    method: 'GET',
    path: '/ajax/checkout/checkout/get_reward_referrer_link/',
    encoding: 'none',
    request: empty,
    response: z.string().check(z.minLength(1)),
  }),
  /** The buyer's words about the order, sent to the organiser. */
  sendCustomerFeedback: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/send_customer_feedback/',
    encoding: 'form',
    request: z.object({ message: feedbackMessage }),
    response: done,
  }),
  /** Subscribes the signed-in buyer to important updates about the events they book. */
  subscribeToEvents: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/subscribe_to_events/',
    encoding: 'form',
    request: empty,
    response: done,
  }),
  /**
   * The accommodation map this site embeds (spec 001 §7: a third-party map frame), or nulls when
   * none is configured. The browser adds the venue, dates, party size and colours.
   */
  getAccommodationMap: call({
    method: 'GET',
    path: '/ajax/checkout/checkout/get_accommodation_map/',
    encoding: 'none',
    request: empty,
    response: z.object({ url: nullableString, affiliate_id: nullableString }),
  }),
} as const;
