import type { addressMachine } from '../../../machines/address/address.machine';
import { useStepChild } from '../useStepChild';
import { useCheckoutData } from '../../app/checkoutContext';
import { AddressForm } from '../../components/address/AddressForm';
import { StepLayout } from '../StepLayout';
import { t } from '../../../i18n/runtime.ts';

/**
 * The delivery_address step (spec 001 §2 Delivery Address): where posted tickets and gift vouchers
 * go, with who a voucher is from and for when the basket holds vouchers. Its chart is the root's
 * `address` child; the sent address completes the step.
 */
export default function DeliveryAddressStep() {
  const checkout = useCheckoutData();
  const actor = useStepChild<typeof addressMachine>('address');
  const giftVouchers = (checkout?.gift_vouchers.length ?? 0) > 0;
  const tickets = (checkout?.tickets.length ?? 0) > 0;
  const what = giftVouchers && tickets ? 'both' : giftVouchers ? 'vouchers' : 'tickets';
  return (
    <StepLayout step="delivery_address" title={t('deliveryAddress.title')}>
      <p className="lead">{t('deliveryAddress.lead', { what })}</p>
      {actor && checkout ? <AddressForm actor={actor} giftVouchers={giftVouchers} /> : null}
    </StepLayout>
  );
}
