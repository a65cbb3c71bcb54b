import { describe, expect, it } from 'vitest';
import {
  donationFee,
  feeTermsOf,
  giftAidPayload,
  giftAidProblems,
  giftAidUplift,
  parseAmount,
  type DonationFeeTerms,
  type GiftAidForm,
} from './donation.ts';

/** The demo charity's terms: 20p + 1.5 %, VAT of 20 % on the fee, capped at £5. */
const harbour: DonationFeeTerms = {
  baseFee: 20,
  bookingFeeBp: 150,
  bookingFeeIncludesVat: true,
  bookingFeeVatBp: 2000,
  bookingFeeCap: 500,
};

describe('donation fee (spec 000 §9: base + percent of the amount, plus VAT on that fee, capped)', () => {
  it.each([
    // amount, terms, fee: worked by hand
    [1000, harbour, 42], // (20 + 15) × 1.2 = 42
    [300, harbour, 29], // (20 + 4.5) × 1.2 = 29.4
    [2500, harbour, 69], // (20 + 37.5) × 1.2 = 69
    [2000, harbour, 60], // (20 + 30) × 1.2 = 60
    [50_000, harbour, 500], // (20 + 750) × 1.2 = 924, capped at 500
    [1234, { ...harbour, baseFee: 30, bookingFeeBp: 250, bookingFeeIncludesVat: false }, 61], // 30 + 30.85, no VAT
    [1234, { ...harbour, baseFee: 30, bookingFeeBp: 250, bookingFeeIncludesVat: false, bookingFeeVatBp: 0 }, 61],
    [100, { ...harbour, baseFee: 100, bookingFeeBp: 0 }, 120], // VAT applies to the base fee too
    [50, { baseFee: 0, bookingFeeBp: 100, bookingFeeIncludesVat: false, bookingFeeVatBp: 0, bookingFeeCap: null }, 1], // 0.5 rounds up
    [149, { baseFee: 0, bookingFeeBp: 100, bookingFeeIncludesVat: false, bookingFeeVatBp: 0, bookingFeeCap: null }, 1], // 1.49 rounds down
    [
      100_000_000,
      { baseFee: 0, bookingFeeBp: 10_000, bookingFeeIncludesVat: true, bookingFeeVatBp: 2000, bookingFeeCap: null },
      120_000_000,
    ],
    [0, harbour, 0],
  ])('a donation of %i pence costs a fee of the worked figure', (amount, terms, fee) => {
    expect(donationFee(amount, terms)).toBe(fee);
  });

  it('reads the wire charity’s percentages as basis points', () => {
    const terms = feeTermsOf({
      id: 1,
      name: 'Harbour Lights Trust',
      logo: '',
      description_html: '',
      donation_checkout_title: '',
      donation_options: [],
      base_fee: 20,
      booking_fee: 1.5,
      booking_fee_includes_vat: true,
      booking_fee_vat: 20,
      booking_fee_cap: 500,
    });
    expect(terms).toEqual(harbour);
  });
});

describe('Gift Aid', () => {
  it('adds 25 % to the donation', () => {
    expect(giftAidUplift(2000)).toBe(500);
    expect(giftAidUplift(1234)).toBe(309); // 308.5 rounds up
    expect(giftAidUplift(301)).toBe(75); // 75.25
  });

  const form = (over: Partial<GiftAidForm> = {}): GiftAidForm => ({
    isGiftAid: true,
    confirmations: { taxpayer: true, ownMoney: true, notSweepstake: true },
    subscribe: false,
    ukBased: true,
    address1: '',
    postcode: '',
    overseasAddress: '',
    ...over,
  });

  it('may always continue with Gift Aid off', () => {
    expect(
      giftAidProblems(
        form({ isGiftAid: false, confirmations: { taxpayer: false, ownMoney: false, notSweepstake: false } }),
        5000,
      ),
    ).toEqual([]);
  });

  it('needs all three confirmations when on', () => {
    for (const missing of ['taxpayer', 'ownMoney', 'notSweepstake'] as const) {
      const confirmations = { taxpayer: true, ownMoney: true, notSweepstake: true, [missing]: false };
      expect(giftAidProblems(form({ confirmations }), 500)).toEqual(['confirmations']);
    }
  });

  it('needs no address below 20, line 1 and postcode from 20 in the UK, the overseas address abroad', () => {
    expect(giftAidProblems(form(), 1999)).toEqual([]);
    expect(giftAidProblems(form(), 2000)).toEqual(['address1', 'postcode']);
    expect(giftAidProblems(form({ address1: '12 Quay St', postcode: ' ' }), 2000)).toEqual(['postcode']);
    expect(giftAidProblems(form({ address1: '12 Quay St', postcode: 'BS1 4RN' }), 2000)).toEqual([]);
    expect(giftAidProblems(form({ ukBased: false, address1: '12 Quay St', postcode: 'BS1 4RN' }), 2000)).toEqual([
      'overseasAddress',
    ]);
    expect(giftAidProblems(form({ ukBased: false, overseasAddress: '4 Rue X, Paris' }), 2000)).toEqual([]);
  });

  it('sends the overseas address in address1 without a postcode', () => {
    expect(giftAidPayload(form({ ukBased: false, overseasAddress: ' 4 Rue X, Paris ', postcode: 'BS1' }))).toEqual({
      is_gift_aid: 'true',
      subscribe: 'false',
      uk_based: 'false',
      address1: '4 Rue X, Paris',
      postcode: '',
    });
    expect(giftAidPayload(form({ isGiftAid: false, subscribe: true }))).toEqual({
      is_gift_aid: 'false',
      subscribe: 'true',
    });
  });
});

describe('custom amounts', () => {
  it.each([
    ['12', 1200],
    ['12.5', 1250],
    ['12.50', 1250],
    ['0.99', 99],
    [' 3 ', 300],
    ['12,5', 1250],
  ])('%s is %i pence', (typed, pence) => expect(parseAmount(typed)).toBe(pence));

  it.each(['', 'abc', '1.234', '-5', '1e3', '12.5.0'])('%s is not an amount', (typed) =>
    expect(parseAmount(typed)).toBeNull(),
  );
});
