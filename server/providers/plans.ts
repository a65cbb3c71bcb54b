/** Saved cards for instalment plans, and Square: each real when keyed, the sandbox on this server otherwise. */
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import { sandboxSavedCards, type SavedCardProcessor, type StripeCardSetup } from '../domain/instalments/offSession.ts';
import { localSquare, type SquareGateway } from '../domain/payment/square.ts';
import { squareApi } from './square.ts';
import { stripeCardSetup, stripeSavedCards } from './stripeCards.ts';

export interface PlanWiring {
  /** Saves and charges cards for plans: Stripe when keyed, else the sandbox processor. */
  cards: SavedCardProcessor;
  /** Stripe's SetupIntents for a new plan card when keyed; null: the sandbox's card form saves it. */
  setup: StripeCardSetup | null;
  /** Square's API when keyed, else Square's sandbox on this server. */
  square: SquareGateway;
}

export function planWiring(
  db: Database,
  config: Pick<Config, 'payment' | 'square'>,
  fetchImpl?: typeof fetch,
): PlanWiring {
  const stripe = config.payment.stripe;
  return {
    cards: stripe ? stripeSavedCards(stripe, fetchImpl) : sandboxSavedCards(),
    setup: stripe ? stripeCardSetup(stripe, fetchImpl) : null,
    square: config.square ? squareApi(config.square, fetchImpl) : localSquare(db),
  };
}
