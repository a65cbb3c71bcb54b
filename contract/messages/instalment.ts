/** The payment plan's words: its failure (spec 001 §8) and the plan form's prompts, which the spec does not word. */
import { messages } from '../../i18n/lazy.ts';
import { t } from '../../i18n/runtime.ts';

export const INSTALMENT_MESSAGES = messages({
  error: 'instalment.error',
  chooseOption: 'instalment.chooseOption',
  chooseCard: 'instalment.chooseCard',
  /** With Stripe keyed, a new card comes only through a SetupIntent the server checks with Stripe. */
  cardThroughStripe: 'instalment.cardThroughStripe',
  /** A SetupIntent Stripe does not know, or one that has not saved a card. */
  cardNotSaved: 'instalment.cardNotSaved',
  /** A SetupIntent made for another buyer. */
  cardNotYours: 'instalment.cardNotYours',
  /** Without Stripe keys, a new card is saved by the sandbox's card form. */
  noStripeSetup: 'instalment.noStripeSetup',
  /** The first instalment was taken but the tickets could not be booked (taken meanwhile, or the code used up). */
  refunded: 'instalment.refunded',
});

/** Spec 001 §2 Order completed, for a sale paid by a plan. */
export const PLAN_COMPLETED_MESSAGES = {
  get title() {
    return t('plan.title');
  },
  get important() {
    return [t('plan.important1'), t('plan.important2'), t('plan.important3'), t('plan.important4')];
  },
};
