import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { connectMarketing } from './marketing.connect';
import { marketingMachine, type MarketingPreferences } from './marketing.machine';

/** The Keep updated screen's controls, each as the event of the spec's action (spec 000 §2). */
describe('marketing senders', () => {
  it('turn each box and the save button into its event', () => {
    const actor = createActor(
      marketingMachine.provide({
        actors: {
          loadPreferences: fromPromise<MarketingPreferences | null, void>(
            () => new Promise<MarketingPreferences | null>(() => {}),
          ),
        },
      }),
    ).start();
    const sent: unknown[] = [];
    const view = connectMarketing(actor.getSnapshot(), (event) => sent.push(event));
    view.toggleEventUpdates();
    view.toggleNewsletter();
    view.toggleOrganiser(7);
    view.save();
    expect(sent).toEqual([
      { type: 'EVENT_UPDATES_TOGGLED' },
      { type: 'NEWSLETTER_TOGGLED' },
      { type: 'ORGANISER_TOGGLED', organiserId: 7 },
      { type: 'SAVE_CLICKED' },
    ]);
    expect(view).toMatchObject({ loading: true, saving: false, saved: false, organisers: [] });
    actor.stop();
  });
});
