import { describe, expect, it } from 'vitest';
import { walk, type Expectation, type OracleQuestion } from '../testing/walk';
import { viewMarketing, type MarketingView } from './marketing.connect';
import { marketingMachine, type MarketingPreferences } from './marketing.machine';

const preferences = {
  ct_subscribed: false,
  event_subscribed: false,
  basket_organisers: [
    { id: 3, organiser_subscribed: false, marketing_signup_message: 'News from Riverside Jazz' },
    { id: 7, organiser_subscribed: true, marketing_signup_message: 'Peak Trail Runs race calendar' },
  ],
};

/** The failure notice as spec 000 §8 words it, written here independently of the machine's constant. */
const MARKETING_FAILED_MESSAGE = 'Unable to set the marketing preferences. Please try again later';

/** Spec 000 §2 "Keep updated step" and §7 set_marketing_preferences: each box, the payload, the error. */
function marketingOracle({
  event,
  view,
  unchanged,
}: OracleQuestion<MarketingView>): Expectation<MarketingView> | undefined {
  // While the preferences load or are sent, the checkboxes and Save do nothing.
  if ((view.loading || view.saving) && !event.type.startsWith('xstate.')) return unchanged();
  const editing = (fields: Partial<MarketingView>): Expectation<MarketingView> => ({
    view: { ...view, ...fields },
    running: [],
  });
  switch (event.type) {
    case 'xstate.done.actor.loadPreferences':
      return editing({
        loading: false,
        organisers: [
          { id: 3, message: 'News from Riverside Jazz', checked: false },
          { id: 7, message: 'Peak Trail Runs race calendar', checked: true },
        ],
      });
    case 'xstate.error.actor.loadPreferences':
      return editing({ loading: false });
    case 'EVENT_UPDATES_TOGGLED':
      return editing({ eventUpdates: { shown: true, checked: !view.eventUpdates.checked } });
    case 'NEWSLETTER_TOGGLED':
      return editing({ newsletter: { shown: true, checked: !view.newsletter.checked } });
    case 'ORGANISER_TOGGLED':
      return editing({
        organisers: view.organisers.map((o) => (o.id === event.organiserId ? { ...o, checked: !o.checked } : o)),
      });
    case 'SAVE_CLICKED':
      return {
        view: { ...view, saving: true, error: null },
        running: ['setMarketingPreferences'],
        started: {
          setMarketingPreferences: [
            {
              ct_subscribed: view.newsletter.checked,
              event_subscribed: view.eventUpdates.checked,
              organiser_subscribed_marketing: Object.fromEntries(view.organisers.map((o) => [String(o.id), o.checked])),
            },
          ],
        },
      };
    case 'xstate.done.actor.setMarketingPreferences':
      return { view: { ...view, saving: false, saved: true }, running: [], output: undefined };
    case 'xstate.error.actor.setMarketingPreferences':
      return editing({ saving: false, error: MARKETING_FAILED_MESSAGE });
  }
  return undefined;
}

describe('marketing machine', () => {
  it('is walked at 100 %: every box, the save and its failure', async () => {
    const result = await walk<MarketingView>({
      name: 'marketing',
      machine: marketingMachine,
      fakes: (kit) => ({ actors: { loadPreferences: kit.controlled(), setMarketingPreferences: kit.controlled() } }),
      events: {
        'xstate.done.actor.loadPreferences': [{ type: 'xstate.done.actor.loadPreferences', output: preferences }],
        'xstate.error.actor.loadPreferences': [{ type: 'xstate.error.actor.loadPreferences', error: new Error('500') }],
        ORGANISER_TOGGLED: [
          { type: 'ORGANISER_TOGGLED', organiserId: 3 },
          { type: 'ORGANISER_TOGGLED', organiserId: 7 },
          { type: 'ORGANISER_TOGGLED', organiserId: 99 },
        ],
        'xstate.done.actor.setMarketingPreferences': [
          { type: 'xstate.done.actor.setMarketingPreferences', output: undefined },
        ],
        'xstate.error.actor.setMarketingPreferences': [
          { type: 'xstate.error.actor.setMarketingPreferences', error: new Error('500') },
        ],
      },
      view: (snapshot) => viewMarketing(snapshot as never),
      initial: () => ({
        view: {
          loading: true,
          eventUpdates: { shown: true, checked: false },
          newsletter: { shown: true, checked: false },
          organisers: [],
          saving: false,
          saved: false,
          error: null,
        },
        running: ['loadPreferences'],
        started: { loadPreferences: [undefined] },
      }),
      askIgnored: true,
      oracle: marketingOracle,
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  }, 120_000);

  it('hides the boxes of what the buyer already receives and keeps those subscriptions in the payload', async () => {
    const { createActor, fromPromise } = await import('xstate');
    const sent: unknown[] = [];
    const actor = createActor(
      marketingMachine.provide({
        actors: {
          loadPreferences: fromPromise(async (): Promise<MarketingPreferences | null> => ({
            ...preferences,
            ct_subscribed: true,
            event_subscribed: true,
          })),
          setMarketingPreferences: fromPromise(async ({ input }) => void sent.push(input)),
        },
      }),
    ).start();
    await new Promise((r) => setTimeout(r, 0));
    const view = viewMarketing(actor.getSnapshot());
    expect(view.eventUpdates.shown).toBe(false);
    expect(view.newsletter.shown).toBe(false);
    actor.send({ type: 'SAVE_CLICKED' });
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual([
      { ct_subscribed: true, event_subscribed: true, organiser_subscribed_marketing: { '3': false, '7': true } },
    ]);
  });
});
