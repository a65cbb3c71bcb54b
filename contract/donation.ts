/**
 * A donation to the basket's charity and its Gift Aid declaration (spec 000 §4, §5, §7, §9): the
 * two calls, the donation fee and the Gift Aid rules, shared by the screens, the machines and the
 * server so each rule is written once. The steps' words are the donation chart's
 * (contract/messages/donation.ts).
 */
import { z } from 'zod/mini';

export { GIFT_AID_UPLIFT_PERCENT, giftAidUplift } from './giftAidUplift.ts';
import { call, done, formBool, formId, formMoney } from './primitives.ts';
import type { Charity } from './checkout.ts';

/** Minimum donation: 1 in major units (spec 000 §9), in minor units. */
export const MIN_DONATION = 100;
/** An address is required for Gift Aid at a donation of 20 or more (spec 000 §9), in minor units. */
export const GIFT_AID_ADDRESS_FROM = 2000;

/** Letters, digits and the punctuation of addresses; no control characters. */
const addressText = (max: number) =>
  z.string().check(
    z.maxLength(max),
    z.refine((s) => !/[\p{Cc}\p{Cs}]/u.test(s), { message: 'must not contain control characters', abort: true }),
  );

export const donationCalls = {
  /** The amount is in minor units, before the donation fee the server adds. */
  saveDonation: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/save_donation/',
    encoding: 'form',
    request: z.object({ amount_before_booking_fee: formMoney, charity_id: formId }),
    response: done,
  }),
  /** Overseas taxpayers give their whole address in `address1` and no postcode. */
  updateDonation: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/update_donation/',
    encoding: 'form',
    request: z.object({
      is_gift_aid: formBool,
      subscribe: z.optional(formBool),
      uk_based: z.optional(formBool),
      address1: z.optional(addressText(300)),
      postcode: z.optional(addressText(16)),
    }),
    response: done,
  }),
} as const;

/** The charity's fee terms in integer form: percentages as basis points (1 % = 100). */
export interface DonationFeeTerms {
  /** Minor units. */
  baseFee: number;
  bookingFeeBp: number;
  bookingFeeIncludesVat: boolean;
  bookingFeeVatBp: number;
  /** Minor units; null when uncapped. */
  bookingFeeCap: number | null;
}

export function feeTermsOf(charity: Charity): DonationFeeTerms {
  return {
    baseFee: charity.base_fee,
    bookingFeeBp: Math.round(charity.booking_fee * 100),
    bookingFeeIncludesVat: charity.booking_fee_includes_vat,
    bookingFeeVatBp: Math.round(charity.booking_fee_vat * 100),
    bookingFeeCap: charity.booking_fee_cap,
  };
}

/**
 * The donation fee of spec 000 §9, in minor units: the base fee plus the booking-fee percent of
 * the amount; plus the VAT percent of that fee when the fee includes VAT; capped at the cap when
 * one is set. Worked in exact integers and rounded once, half up, to the nearest minor unit.
 */
export function donationFee(amount: number, terms: DonationFeeTerms): number {
  if (amount <= 0) return 0;
  const TEN_THOUSAND = 10_000n;
  // The fee in 1/10,000 of a minor unit, then VAT in 1/10,000 of that.
  const fee = BigInt(terms.baseFee) * TEN_THOUSAND + BigInt(amount) * BigInt(terms.bookingFeeBp);
  const scaled = terms.bookingFeeIncludesVat
    ? fee * (TEN_THOUSAND + BigInt(terms.bookingFeeVatBp))
    : fee * TEN_THOUSAND;
  const unit = TEN_THOUSAND * TEN_THOUSAND;
  const rounded = Number((scaled + unit / 2n) / unit);
  return terms.bookingFeeCap === null ? rounded : Math.min(rounded, terms.bookingFeeCap);
}

/** A typed custom amount ('12.5', '12.50') in minor units, or null when it is not an amount. */
export function parseAmount(typed: string): number | null {
  const match = /^\s*(\d{1,7})(?:[.,](\d{0,2}))?\s*$/.exec(typed);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** The Gift Aid form (spec 000 §3) as the buyer fills it. */
export interface GiftAidForm {
  isGiftAid: boolean;
  /** UK taxpayer, own money, not a sweepstake. */
  confirmations: { taxpayer: boolean; ownMoney: boolean; notSweepstake: boolean };
  subscribe: boolean;
  ukBased: boolean;
  address1: string;
  postcode: string;
  overseasAddress: string;
}

export type GiftAidField = 'confirmations' | 'address1' | 'postcode' | 'overseasAddress';

/**
 * What keeps the Gift Aid form from being sent (spec 000 §5), as the fields at fault: with Gift
 * Aid on, all three confirmations; at a donation of 20 or more, line 1 and postcode for a UK
 * resident or the overseas address. Gift Aid off may always continue.
 */
export function giftAidProblems(form: GiftAidForm, donationAmount: number): GiftAidField[] {
  if (!form.isGiftAid) return [];
  const problems: GiftAidField[] = [];
  const { taxpayer, ownMoney, notSweepstake } = form.confirmations;
  if (!(taxpayer && ownMoney && notSweepstake)) problems.push('confirmations');
  if (donationAmount >= GIFT_AID_ADDRESS_FROM) {
    if (form.ukBased) {
      if (!form.address1.trim()) problems.push('address1');
      if (!form.postcode.trim()) problems.push('postcode');
    } else if (!form.overseasAddress.trim()) {
      problems.push('overseasAddress');
    }
  }
  return problems;
}

/** The update_donation payload for a form that has no problems. */
export function giftAidPayload(form: GiftAidForm): z.input<(typeof donationCalls)['updateDonation']['request']> {
  if (!form.isGiftAid) return { is_gift_aid: 'false', subscribe: String(form.subscribe) };
  return {
    is_gift_aid: 'true',
    subscribe: String(form.subscribe),
    uk_based: String(form.ukBased),
    address1: (form.ukBased ? form.address1 : form.overseasAddress).trim(),
    postcode: form.ukBased ? form.postcode.trim() : '',
  };
}
