/** The payment step's pure rules: what the checkout means for the step, and what keeps Pay from sending. */
import {
  autoMethod,
  isFullName,
  isValidExpressEmail,
  isValidPhone,
  offeredMethods,
  saasBlockingOrganiser,
  type Checkout,
  type ChosenMethod,
  type PaymentMethod,
} from '../../contract';
import type { PaymentForm, PaymentProblemField, PaymentSituation } from './payment.types';
import { planOptions } from '../../contract';
import { PAYMENT_MESSAGES } from '../../contract/messages/payment';
import { planProblems } from '../instalment/instalment.rules';

/** The methods this build takes; bank transfer, Square and plans join here when they are built. */
export const BUILT_METHODS: readonly ChosenMethod[] = ['truelayer', 'stripe', 'square', 'instalment'];

export function paymentSituation(
  checkout: Checkout,
  paymentError: string | null,
  built: readonly ChosenMethod[] = BUILT_METHODS,
): PaymentSituation {
  return {
    paid: checkout.payment_complete,
    blockedBy: saasBlockingOrganiser(checkout),
    free: checkout.basket_total === 0,
    express: checkout.express,
    phoneRequired: checkout.has_require_phone_number,
    offered: offeredMethods(checkout, built),
    autoMethod: autoMethod(checkout, built),
    // An organiser without its own sign-up message is still named, so no box goes unlabelled.
    marketingOrganisers: (checkout.marketing_preferences?.basket_organisers ?? []).map((o) => ({
      id: o.id,
      message:
        o.marketing_signup_message ||
        `Hear about new events from ${checkout.organisers.find((x) => x.id === o.id)?.name ?? 'the organiser'}`,
    })),
    email: checkout.init_guest_email ?? '',
    paymentError,
    planOptions: planOptions(checkout).map((o) => o.option),
  };
}

/** What keeps the form from being sent (spec 001 §5), field by field. */
export function paymentProblems(
  form: PaymentForm,
  situation: Pick<PaymentSituation, 'express' | 'phoneRequired' | 'offered'> & { planOptions?: readonly string[] },
  method: PaymentMethod,
): Partial<Record<PaymentProblemField, string>> {
  const problems: Partial<Record<PaymentProblemField, string>> = {};
  if (situation.express) {
    if (!isFullName(form.fullName)) problems.fullName = PAYMENT_MESSAGES.fullName;
    if (!isValidExpressEmail(form.email)) problems.email = PAYMENT_MESSAGES.email;
  }
  // The billing address is the address form's (machines/address), which says what it needs itself.
  const phone = form.contactNumber.trim();
  if ((situation.phoneRequired || phone !== '') && !isValidPhone(phone))
    problems.contactNumber = PAYMENT_MESSAGES.phone;
  if (method === 'none' || !situation.offered.includes(method)) problems.method = PAYMENT_MESSAGES.chooseMethod;
  // A plan needs an option, a valid phone and a card (spec 001 §5).
  else if (method === 'instalment')
    Object.assign(problems, planProblems(form.plan, phone, situation.planOptions ?? []));
  return problems;
}
