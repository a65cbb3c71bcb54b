/**
 * The sandboxes' card calls: the sandbox processor's card saving for plans (standing in for
 * Stripe's) and its card tokenisation for Square (standing in for Square's SDK). Thin mappings onto
 * server/domain/instalments/sandboxCards.ts.
 */
import { tokeniseSandboxCard } from '../../domain/instalments/sandboxCards.ts';
import { Refusal } from '../../domain/refusal.ts';
import type { Handlers, SandboxCall } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';

export function sandboxCardHandlers(deps: AppDeps): Pick<Handlers, SandboxCall> {
  const { db, clock } = deps;
  const wiring = deps.plans;
  return {
    saveSandboxCard: async ({ input }) => {
      if (wiring.cards.name !== 'sandbox') throw new Refusal('not-found', 'Cards are saved by Stripe on this server');
      const card = await tokeniseSandboxCard(db, input, 'payment_method', clock());
      return {
        id: card.id,
        brand: card.brand,
        last4: card.last4,
        month: card.expMonth,
        year: card.expYear,
        funding: card.funding,
      };
    },
    tokeniseSandboxSquareCard: async ({ input }) => {
      if (!deps.config.demo) throw new Refusal('not-found', 'Square’s sandbox is served in demo mode only');
      if (wiring.square.credentials.checkout_js !== '')
        throw new Refusal('not-found', 'Cards are tokenised by Square on this server');
      const card = await tokeniseSandboxCard(db, input, 'nonce', clock());
      return { token: card.id };
    },
  };
}
