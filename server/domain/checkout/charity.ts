/** The basket organisers' charity and the buyer's donation to it, as the checkout shows them. */
import type { Charity, Checkout } from '../../../contract/index.ts';
import type { charities, saleDonations } from '../../db/schema.ts';

export function checkoutCharity(charity: typeof charities.$inferSelect | null): Charity | null {
  if (!charity) return null;
  return {
    id: charity.id,
    name: charity.name,
    logo: charity.logo,
    description_html: charity.descriptionHtml,
    donation_checkout_title: charity.donationCheckoutTitle,
    donation_options: charity.donationOptions,
    base_fee: charity.baseFee,
    // Stored in basis points, shown as percentages.
    booking_fee: charity.bookingFeeBp / 100,
    booking_fee_includes_vat: charity.bookingFeeIncludesVat,
    booking_fee_vat: charity.bookingFeeVatBp / 100,
    booking_fee_cap: charity.bookingFeeCap,
  };
}

export function donationFields(
  donation: Pick<typeof saleDonations.$inferSelect, 'amount' | 'fee' | 'isGiftAid'> | null,
): Pick<Checkout, 'donation' | 'donation_amount' | 'is_gift_aid'> {
  return {
    donation: donation
      ? { amount_before_booking_fee: donation.amount, booking_fee: donation.fee, is_gift_aid: donation.isGiftAid }
      : null,
    donation_amount: donation?.amount ?? 0,
    is_gift_aid: donation?.isGiftAid ?? false,
  };
}
