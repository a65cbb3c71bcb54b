/**
 * The sandbox card processor: a working card processor served by this server for when no Stripe
 * keys are set. Its payments are rows of `payments` (provider 'sandbox'); its card form checks
 * the number with Luhn, the expiry and the CVC; test numbers decline, run short of funds, or ask
 * for a challenge the buyer approves or fails. Its result settles the payment as Stripe's webhook
 * would, and the buyer returns to /do/checkout/stripe_auth/.
 */
import { randomBytes } from 'node:crypto';
import { SANDBOX_CARDS } from '../../../contract/index.ts';
import type { CardProcessor } from './processor.ts';
import { SANDBOX_PUBLIC_KEY } from './processor.ts';

export const SANDBOX_MESSAGES = {
  number: 'Your card number is incorrect.',
  expiry: 'Your card’s expiration date is incomplete or in the past.',
  cvc: 'Your card’s security code is incomplete.',
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  challengeFailed:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;

export function sandboxProcessor(): CardProcessor {
  return {
    name: 'sandbox',
    publicKey: SANDBOX_PUBLIC_KEY,
    async createPayment() {
      const id = `pi_sandbox_${randomBytes(12).toString('hex')}`;
      return { id, clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}` };
    },
    // A refund is its row in payment_refunds, written by the caller in the same transaction.
    async refund() {},
    // The sandbox settles as it takes the card: its record is the payments row itself.
    async retrieve() {
      return null;
    },
    // Its card page takes only a payment whose row is still open: the caller closes the row, in the
    // same transaction, and that is the cancellation.
    async cancel() {},
  };
}

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** 'MM/YY' not before the current month. */
export function expiryValid(expiry: string, now: Date): boolean {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry);
  if (!match) return false;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return false;
  return year * 12 + month >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

export type CardCheck =
  | { kind: 'invalid'; field: 'number' | 'expiry' | 'cvc'; message: string }
  | { kind: 'approved' }
  | { kind: 'declined'; message: string }
  | { kind: 'challenge' };

/** What the sandbox does with a card. */
export function checkCard(card: { number: string; expiry: string; cvc: string }, now: Date): CardCheck {
  const number = card.number.replace(/[\s-]/g, '');
  if (!luhnValid(number)) return { kind: 'invalid', field: 'number', message: SANDBOX_MESSAGES.number };
  if (!expiryValid(card.expiry, now)) return { kind: 'invalid', field: 'expiry', message: SANDBOX_MESSAGES.expiry };
  if (!/^\d{3,4}$/.test(card.cvc.trim())) return { kind: 'invalid', field: 'cvc', message: SANDBOX_MESSAGES.cvc };
  if (number === SANDBOX_CARDS.decline) return { kind: 'declined', message: SANDBOX_MESSAGES.declined };
  if (number === SANDBOX_CARDS.insufficientFunds)
    return { kind: 'declined', message: SANDBOX_MESSAGES.insufficientFunds };
  if (number === SANDBOX_CARDS.challenge) return { kind: 'challenge' };
  return { kind: 'approved' };
}
