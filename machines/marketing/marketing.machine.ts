/**
 * Keep updated (spec 000 §2 "Keep updated step", §4 "Marketing save goes to the next step"): the
 * buyer ticks what they want, set_marketing_preferences saves it, and the step is done. Boxes for
 * what the buyer already receives are not shown, and are sent as they are.
 */
import { assertEvent, assign, setup } from 'xstate';
import { MARKETING_MESSAGES } from '../../contract/messages/marketing';
import type { Checkout } from '../../contract';
import { providedByApp } from '../providedByApp';

export type MarketingPreferences = NonNullable<Checkout['marketing_preferences']>;

export interface MarketingPayload {
  ct_subscribed: boolean;
  event_subscribed: boolean;
  organiser_subscribed_marketing: Record<string, boolean>;
}

export interface MarketingContext {
  /** Null until the checkout is read. */
  preferences: MarketingPreferences | null;
  eventUpdates: boolean;
  newsletter: boolean;
  organisers: Record<string, boolean>;
  error: string | null;
}

export type MarketingEvent =
  | { type: 'EVENT_UPDATES_TOGGLED' }
  | { type: 'NEWSLETTER_TOGGLED' }
  | { type: 'ORGANISER_TOGGLED'; organiserId: number }
  | { type: 'SAVE_CLICKED' };

export function payloadOf(context: MarketingContext): MarketingPayload {
  return {
    ct_subscribed: (context.preferences?.ct_subscribed ?? false) || context.newsletter,
    event_subscribed: (context.preferences?.event_subscribed ?? false) || context.eventUpdates,
    organiser_subscribed_marketing: { ...context.organisers },
  };
}

export const marketingMachine = setup({
  types: {
    context: {} as MarketingContext,
    events: {} as MarketingEvent,
    children: {} as { loadPreferences: 'loadPreferences'; setMarketingPreferences: 'setMarketingPreferences' },
    tags: {} as 'busy',
  },
  actors: {
    /** The checkout's marketing_preferences, from the app's query cache. */
    loadPreferences: providedByApp.call<MarketingPreferences | null, void>('loadPreferences'),
    setMarketingPreferences: providedByApp.call<void, MarketingPayload>('setMarketingPreferences'),
  },
  actions: {
    keepPreferences: assign((_, params: { preferences: MarketingPreferences | null }) => ({
      preferences: params.preferences,
      organisers: Object.fromEntries(
        (params.preferences?.basket_organisers ?? []).map((o) => [String(o.id), o.organiser_subscribed]),
      ),
    })),
    toggleEventUpdates: assign({ eventUpdates: ({ context }) => !context.eventUpdates }),
    toggleNewsletter: assign({ newsletter: ({ context }) => !context.newsletter }),
    toggleOrganiser: assign({
      organisers: ({ context, event }) => {
        assertEvent(event, 'ORGANISER_TOGGLED');
        const key = String(event.organiserId);
        return key in context.organisers
          ? { ...context.organisers, [key]: !context.organisers[key] }
          : context.organisers;
      },
    }),
    clearError: assign({ error: null }),
    showError: assign({ error: MARKETING_MESSAGES.failed }),
  },
}).createMachine({
  id: 'marketing',
  description: 'The Keep updated boxes, saved with set_marketing_preferences.',
  // Consent is asked for, never assumed: every box starts as the buyer's current choice.
  context: { preferences: null, eventUpdates: false, newsletter: false, organisers: {}, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        src: 'loadPreferences',
        id: 'loadPreferences',
        onDone: {
          target: 'editing',
          actions: { type: 'keepPreferences', params: ({ event }) => ({ preferences: event.output }) },
        },
        onError: {
          target: 'editing',
          description: 'Without the checkout the buyer can still go on: nothing is ticked.',
        },
      },
    },
    editing: {
      on: {
        EVENT_UPDATES_TOGGLED: { actions: 'toggleEventUpdates' },
        NEWSLETTER_TOGGLED: { actions: 'toggleNewsletter' },
        ORGANISER_TOGGLED: { actions: 'toggleOrganiser' },
        SAVE_CLICKED: { target: 'saving', actions: 'clearError' },
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        src: 'setMarketingPreferences',
        id: 'setMarketingPreferences',
        input: ({ context }) => payloadOf(context),
        onDone: { target: 'saved' },
        onError: { target: 'editing', actions: 'showError' },
      },
    },
    saved: { type: 'final', description: 'Marketing save goes to the next step.' },
  },
});
