/** What the screen shows while a plan is being set up, and what Stripe's card form may send. */
import type { SnapshotFrom } from 'xstate';
import type { instalmentMachine } from './instalment.machine';
import type { InstalmentEvent, StripeSetup } from './instalment.types';

export interface InstalmentView {
  /** The new card is being saved by the processor. */
  savingCard: boolean;
  /** Stripe's card form for the SetupIntent is on screen (Stripe keyed). */
  takingCard: boolean;
  /** Stripe.js is confirming the SetupIntent with the card. */
  confirmingCard: boolean;
  /** The SetupIntent Stripe's form confirms, while the form is on screen. */
  stripeSetup: StripeSetup | null;
  /** pay_with_instalment is in flight. */
  paying: boolean;
  /** The browser is on its way to the url the server named. */
  redirecting: boolean;
}

export function viewInstalment(snapshot: SnapshotFrom<typeof instalmentMachine>): InstalmentView {
  const takingCard = snapshot.hasTag('takingCard');
  return {
    savingCard: snapshot.hasTag('savingCard'),
    takingCard,
    confirmingCard: snapshot.hasTag('confirmingCard'),
    stripeSetup: takingCard ? snapshot.context.stripeSetup : null,
    paying: snapshot.hasTag('paying'),
    redirecting: snapshot.hasTag('redirecting'),
  };
}

export function instalmentSenders(send: (event: InstalmentEvent) => void) {
  return {
    submitCard: () => send({ type: 'CARD_SUBMITTED' }),
    cardFormFailed: () => send({ type: 'CARD_FORM_FAILED' }),
  };
}
