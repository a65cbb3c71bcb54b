/**
 * Paying by instalments (spec 001 §4 Instalment result statuses, §7 pay_with_instalment, §8, §9),
 * invoked by the payment chart once the buyer's details are saved: a new card is first saved by
 * the processor for off-session use (the sandbox's card form, or Stripe's SetupIntent when keyed),
 * then pay_with_instalment: success goes on (the plan's remaining amount is set), redirect_to_url
 * takes the browser to the url, unsuccessful or a failed call ends with the spec's error.
 */
import { assign, setup } from 'xstate';
import type { ResponseOf } from '../../contract';
import { INSTALMENT_MESSAGES } from '../../contract/messages/instalment';
import { messageOf } from '../../contract/errors.ts';
import { failureOf } from '../../contract/outcome.ts';
import { NEW_CARD, type InstalmentInput, type InstalmentOutcome, type PayWithInstalmentRequest, type SavedCard } from './instalment.types';
import { providedByApp } from '../providedByApp';

export interface InstalmentContext {
  input: InstalmentInput;
  newCard: SavedCard | null;
  /** How the plan ended; set on every way into `done`, so null only while it goes on. */
  outcome: InstalmentOutcome | null;
}

export const instalmentMachine = setup({
  types: {
    context: {} as InstalmentContext,
    input: {} as InstalmentInput,
    output: {} as InstalmentOutcome,
    children: {} as { saveNewCard: 'saveNewCard'; payWithInstalment: 'payWithInstalment' },
    tags: {} as 'savingCard' | 'paying' | 'redirecting',
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide both actors.
  actors: {
    /** The processor saves the new card for later payments; rejects with the card form's words. */
    saveNewCard: providedByApp.call<SavedCard, void>('saveNewCard'),
    payWithInstalment: providedByApp.call<ResponseOf<'payWithInstalment'>, PayWithInstalmentRequest>('payWithInstalment'),
  },
  actions: {
    keepCard: assign((_, params: { card: SavedCard }) => ({ newCard: params.card })),
    /** The browser leaves for the url the server named (the app provides the navigation). */
    goToUrl: (_, _params: { url: string }) => {},
    keepPaid: assign({ outcome: { type: 'paid' as const } }),
    keepFailure: assign((_, params: { message: string }) => ({ outcome: { type: 'failed' as const, message: params.message } })),
    keepHoldLost: assign((_, params: { message: string }) => ({ outcome: { type: 'reserving' as const, message: params.message } })),
  },
  guards: {
    isNewCard: ({ context }) => context.input.card === NEW_CARD,
    succeeded: (_, params: { reply: ResponseOf<'payWithInstalment'> }) => params.reply.status === 'success',
    redirects: (_, params: { reply: ResponseOf<'payWithInstalment'> }) => params.reply.status === 'redirect_to_url' && !!params.reply.url,
    holdLost: (_, params: { error: unknown }) => failureOf(params.error).kind === 'holdLost',
  },
}).createMachine({
  // Stryker disable next-line StringLiteral: no target names the instalment chart by its id.
  id: 'instalment',
  description: 'Save a new card if one was entered, then set the plan up with pay_with_instalment.',
  context: ({ input }) => ({ input, newCard: null, outcome: null }),
  output: ({ context }) => context.outcome!,
  initial: 'choosingCard',
  states: {
    choosingCard: {
      always: [{ guard: 'isNewCard', target: 'savingCard' }, { target: 'paying' }],
    },
    savingCard: {
      tags: ['savingCard'],
      description: 'The processor saves the new card for off-session use (spec 001 §9: card only).',
      invoke: {
        src: 'saveNewCard',
        id: 'saveNewCard',
        onDone: { target: 'paying', actions: { type: 'keepCard', params: ({ event }) => ({ card: event.output }) } },
        onError: { target: 'done', actions: { type: 'keepFailure', params: ({ event }) => ({ message: messageOf(event.error, INSTALMENT_MESSAGES.error) }) } },
      },
    },
    paying: {
      tags: ['paying'],
      invoke: {
        src: 'payWithInstalment',
        id: 'payWithInstalment',
        input: ({ context }) => ({
          instalment_option: context.input.option,
          contact_number: context.input.contactNumber,
          ...(context.newCard
            ? { new_payment_method: { ...context.newCard, make_default_payment_method: String(context.input.makeDefault) } }
            : { selected_payment_method_id: context.input.card }),
        }),
        onDone: [
          { guard: { type: 'succeeded', params: ({ event }) => ({ reply: event.output }) }, target: 'done', actions: 'keepPaid' },
          {
            guard: { type: 'redirects', params: ({ event }) => ({ reply: event.output }) },
            target: 'redirecting',
            // Stryker disable next-line StringLiteral: the redirects guard lets only a reply with a url here; the fallback is for the type.
            actions: { type: 'goToUrl', params: ({ event }) => ({ url: event.output.url ?? '' }) },
          },
          { target: 'done', actions: { type: 'keepFailure', params: { message: INSTALMENT_MESSAGES.error } }, description: 'unsuccessful' },
        ],
        onError: [
          {
            guard: { type: 'holdLost', params: ({ event }) => ({ error: event.error }) },
            target: 'done',
            actions: { type: 'keepHoldLost', params: ({ event }) => ({ message: messageOf(event.error, '') }) },
          },
          { target: 'done', actions: { type: 'keepFailure', params: { message: INSTALMENT_MESSAGES.error } } },
        ],
      },
    },
    redirecting: { tags: ['redirecting'], description: 'The browser is on its way to the url the server named.' },
    done: { type: 'final' },
  },
});

