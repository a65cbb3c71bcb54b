import { lazy, Suspense } from 'react';
import type { Step } from '../../contract';
import { Spinner } from '../../ui/Spinner';
import { BasketStep } from '../steps/basket/BasketStep';
import { DeterminingStep } from '../steps/DeterminingStep';

// Determining and basket are what every visit starts with; every other step is its own chunk.
const CaptchaStep = lazy(() => import('../steps/captcha/CaptchaStep'));
const ReserveStep = lazy(() => import('../steps/ReserveStep'));
const LaterStep = lazy(() => import('../steps/LaterStep'));
const LoginStep = lazy(() => import('../steps/login/LoginStep'));
const MarketingStep = lazy(() => import('../steps/marketing/MarketingStep'));
const DonationStep = lazy(() => import('../steps/donation/DonationStep'));
const GiftAidStep = lazy(() => import('../steps/giftAid/GiftAidStep'));
const DeliveryStep = lazy(() => import('../steps/delivery/DeliveryStep'));
const AfterSaleStep = lazy(() => import('../steps/orderCompleted/AfterSaleStep'));
const PaymentStep = lazy(() => import('../steps/payment/PaymentStep'));
const DeliveryAddressStep = lazy(() => import('../steps/address/DeliveryAddressStep'));
const QuestionsStep = lazy(() => import('../steps/questions/QuestionsStep'));
const BankTransferStep = lazy(() => import('../steps/bankTransfer/BankTransferStep'));

/** The screen for the machine's current step. */
export function StepScreen({ step }: { step: Step }) {
  switch (step) {
    case 'determining':
      return <DeterminingStep />;
    case 'basket':
      return <BasketStep />;
    default:
      return (
        <Suspense
          fallback={
            <div className="step step--centred">
              <Spinner size="large" label="Loading" />
            </div>
          }
        >
          {step === 'captcha' ? (
            <CaptchaStep />
          ) : step === 'reserve' ? (
            <ReserveStep />
          ) : step === 'login' ? (
            <LoginStep />
          ) : step === 'marketing_preferences' ? (
            <MarketingStep />
          ) : step === 'donation' ? (
            <DonationStep />
          ) : step === 'gift_aid' ? (
            <GiftAidStep />
          ) : step === 'deliver_tickets' ? (
            <DeliveryStep />
          ) : step === 'order_completed' || step === 'after_sale_messages' ? (
            <AfterSaleStep step={step} />
          ) : step === 'payment' ? (
            <PaymentStep />
          ) : step === 'awaiting_truelayer' ? (
            <BankTransferStep />
          ) : step === 'delivery_address' ? (
            <DeliveryAddressStep />
          ) : step === 'ticket_questions_before' || step === 'ticket_questions_after' ? (
            <QuestionsStep step={step} />
          ) : (
            <LaterStep step={step} />
          )}
        </Suspense>
      );
  }
}
