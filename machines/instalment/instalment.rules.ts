/** Spec 001 §5: a plan is paid only with an option, a valid phone and a card chosen. */
import { isValidPhone, PAY_IN_FULL_OPTION } from '../../contract';
import { INSTALMENT_MESSAGES } from '../../contract/messages/instalment';
import { PAYMENT_MESSAGES } from '../../contract/messages/payment';
import type { PlanChoice } from './instalment.types';

export type PlanProblemField = 'planOption' | 'planCard' | 'contactNumber';

export function planProblems(
  plan: PlanChoice,
  contactNumber: string,
  offeredOptions: readonly string[],
): Partial<Record<PlanProblemField, string>> {
  const problems: Partial<Record<PlanProblemField, string>> = {};
  if (plan.option === null || plan.option === PAY_IN_FULL_OPTION || !offeredOptions.includes(plan.option))
    problems.planOption = INSTALMENT_MESSAGES.chooseOption;
  if (!isValidPhone(contactNumber)) problems.contactNumber = PAYMENT_MESSAGES.phone;
  if (plan.card === null) problems.planCard = INSTALMENT_MESSAGES.chooseCard;
  return problems;
}
