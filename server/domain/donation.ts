/**
 * A donation to the basket's charity (spec 000 §4 Donation, §9 the fee) and the Gift Aid choice
 * that follows it. The fee is worked out here, in integer minor units, with the charity's terms at
 * the time of the donation; the screen's preview uses the same formula from the contract.
 */
import { and, eq } from 'drizzle-orm';
import type { Database, Executor } from '../db/index.ts';
import {
  charities,
  giftAidDeclarations,
  giftVouchers,
  organisers,
  saleDonations,
  saleVouchers,
  users,
} from '../db/schema.ts';
import { GIFT_AID_ADDRESS_FROM, MIN_DONATION, donationFee, type DonationFeeTerms } from '../../contract/index.ts';
import { DONATION_MESSAGES, GIFT_AID_MESSAGES } from '../../contract/messages/donation.ts';
import { Refusal } from './refusal.ts';
import { holdIsLive, lockOpenSale, lockSale, type Sale } from './sales.ts';
import { closeOpenPayments } from './payment/paidFor.ts';
import { eventOf, linesWithEvents } from './saleLines.ts';

type CharityRow = typeof charities.$inferSelect;
type DonationRow = typeof saleDonations.$inferSelect;

export function feeTerms(charity: CharityRow): DonationFeeTerms {
  return {
    baseFee: charity.baseFee,
    bookingFeeBp: charity.bookingFeeBp,
    bookingFeeIncludesVat: charity.bookingFeeIncludesVat,
    bookingFeeVatBp: charity.bookingFeeVatBp,
    bookingFeeCap: charity.bookingFeeCap,
  };
}

/** The charities of the organisers whose tickets or vouchers are in the basket. */
async function basketCharityIds(tx: Pick<Executor, 'select' | 'query'>, saleId: string): Promise<number[]> {
  const fromTickets = (await linesWithEvents(tx, saleId)).map((line) => ({ id: eventOf(line).organiser.charityId }));
  const fromVouchers = await tx
    .select({ id: organisers.charityId })
    .from(saleVouchers)
    .innerJoin(giftVouchers, eq(giftVouchers.id, saleVouchers.giftVoucherId))
    .innerJoin(organisers, eq(organisers.id, giftVouchers.organiserId))
    .where(eq(saleVouchers.saleId, saleId));
  return [...fromTickets, ...fromVouchers].flatMap((r) => (r.id === null ? [] : [r.id]));
}

/** The donation given in the sale's current reservation, if any. */
export function currentDonation(
  sale: Pick<Sale, 'reference'>,
  donation: DonationRow | undefined | null,
): DonationRow | null {
  return donation && sale.reference !== null && donation.saleReference === sale.reference ? donation : null;
}

export async function findDonation(
  db: Pick<Executor, 'select'>,
  sale: Pick<Sale, 'id' | 'reference'>,
): Promise<DonationRow | null> {
  const [row] = await db.select().from(saleDonations).where(eq(saleDonations.saleId, sale.id));
  return currentDonation(sale, row);
}

/**
 * save_donation: the amount (minor units, before the fee) for the basket's charity, in the live
 * reservation. A new amount replaces the last one and withdraws its Gift Aid declaration, since
 * the Gift Aid step follows and asks again.
 */
export async function saveDonation(
  db: Database,
  saleId: string,
  input: { amount: number; charityId: number },
  now: Date,
): Promise<{ amount: number; fee: number }> {
  if (input.amount < MIN_DONATION) throw new Refusal('invalid-input', DONATION_MESSAGES.selectAnAmount);
  return db.transaction(async (tx) => {
    const sale = await lockOpenSale(tx, saleId);
    if (!holdIsLive(sale, now) || sale.reference === null)
      throw new Refusal('hold-lost', DONATION_MESSAGES.problemSettingAmount);
    if (!(await basketCharityIds(tx, saleId)).includes(input.charityId)) {
      throw new Refusal('invalid-input', DONATION_MESSAGES.problemSettingAmount);
    }
    const [charity] = await tx.select().from(charities).where(eq(charities.id, input.charityId));
    const fee = donationFee(input.amount, feeTerms(charity!));
    // The total changes: a payment open for the old one is closed.
    await closeOpenPayments(tx, saleId);
    await tx.delete(giftAidDeclarations).where(eq(giftAidDeclarations.saleId, saleId));
    const values = {
      charityId: input.charityId,
      saleReference: sale.reference,
      amount: input.amount,
      fee,
      isGiftAid: false,
      subscribe: false,
    };
    await tx
      .insert(saleDonations)
      .values({ saleId, ...values })
      .onConflictDoUpdate({ target: saleDonations.saleId, set: values });
    return { amount: input.amount, fee };
  });
}

export interface GiftAidChoice {
  isGiftAid: boolean;
  subscribe: boolean;
  ukBased: boolean;
  address1: string;
  postcode: string;
}

/** Whether the address the Gift Aid rules ask for at this amount (spec 000 §5) is there. */
export function giftAidAddressIsComplete(choice: GiftAidChoice, amount: number): boolean {
  if (amount < GIFT_AID_ADDRESS_FROM) return true;
  return choice.ukBased
    ? choice.address1.trim() !== '' && choice.postcode.trim() !== ''
    : choice.address1.trim() !== '';
}

/**
 * update_donation: Gift Aid on or off for the sale's current donation, and the charity's
 * newsletter. Gift Aid on keeps a declaration with its date, the donor's address (when the
 * amount needs one) and the donor's name when the buyer is already known.
 */
export async function updateDonation(
  db: Database,
  saleId: string,
  choice: GiftAidChoice,
  now: Date,
  signedInUserId: number | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const sale = await lockSale(tx, saleId);
    const donation = holdIsLive(sale, now) ? await findDonation(tx, sale) : null;
    if (!donation) throw new Refusal('conflict', GIFT_AID_MESSAGES.problemSettingStatus);
    if (choice.isGiftAid && !giftAidAddressIsComplete(choice, donation.amount)) {
      throw new Refusal('invalid-input', GIFT_AID_MESSAGES.problemSettingStatus);
    }
    await tx.delete(giftAidDeclarations).where(eq(giftAidDeclarations.saleId, saleId));
    await tx
      .update(saleDonations)
      .set({ isGiftAid: choice.isGiftAid, subscribe: choice.subscribe })
      .where(and(eq(saleDonations.saleId, saleId), eq(saleDonations.saleReference, donation.saleReference)));
    if (!choice.isGiftAid) return;

    const userId = sale.userId ?? signedInUserId;
    const [donor] = userId === null ? [] : await tx.select().from(users).where(eq(users.id, userId));
    await tx.insert(giftAidDeclarations).values({
      saleId,
      charityId: donation.charityId,
      userId: donor?.id ?? null,
      firstName: donor?.firstName ?? null,
      lastName: donor?.lastName ?? null,
      ukBased: choice.ukBased,
      address1: choice.address1.trim(),
      postcode: choice.ukBased ? choice.postcode.trim().toUpperCase() : '',
      amount: donation.amount,
      currency: sale.currency ?? 'GBP',
      declaredAt: now,
    });
  });
}
