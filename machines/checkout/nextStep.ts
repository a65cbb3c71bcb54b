/**
 * The next-step rules of the checkout (spec 000 §4 "Step order", spec 001 §4 "Next-step rules"),
 * as one pure function of the step being left and the checkout the server just returned. The
 * steps, their order and when each applies are data in the contract's step table
 * (`contract/steps.ts`, read through `FLOW`); this file adds the rules' exceptions.
 */
import type { Checkout } from '../../contract/checkout.ts';
import { FLOW, stepsAfter, type Step } from '../../contract/steps.ts';

/** Whether the buyer meets `step` with this checkout. */
function applies(step: Step, checkout: Checkout): boolean {
  const row = FLOW.find((r) => r.step === step);
  return row?.appliesWhen?.(checkout) ?? true;
}

/** The first step after `from`, in the flow, that applies to the checkout; the last step stays. */
function firstApplyingAfter(from: Step, checkout: Checkout): Step {
  return stepsAfter(from).find((step) => applies(step, checkout)) ?? from;
}

export function nextStep(from: Step, checkout: Checkout): Step {
  switch (from) {
    case 'determining':
      // The server remembers where the buyer was; an unknown position starts at the basket.
      return checkout.state === 'determining' ? 'basket' : checkout.state;
    case 'captcha':
    case 'reserve':
      // An express buyer with no charity to give to goes from the reservation straight to payment.
      if (checkout.express && !applies('donation', checkout)) return 'payment';
      return firstApplyingAfter(from, checkout);
    default:
      return firstApplyingAfter(from, checkout);
  }
}
