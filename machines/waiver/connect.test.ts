import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { viewWaiver, waiverSenders } from './waiver.connect';
import { waiverMachine } from './waiver.machine';

/** The waiver screen's view of its chart, and its buttons' events (spec 001 §8 Waiver). */
describe('waiver view and senders', () => {
  it('shows the copy button waiting while the link is written to the clipboard, and not before or after', async () => {
    let finish: () => void = () => {};
    const actor = createActor(
      waiverMachine.provide({
        actors: {
          copyLink: fromPromise<void, { text: string }>(() => new Promise<void>((resolve) => (finish = resolve))),
        },
        // The notice goes to the root chart, which this test has not.
        actions: { notifyLinkCopied: () => {} },
      }),
    ).start();
    expect(viewWaiver(actor.getSnapshot())).toEqual({ copying: false });
    waiverSenders(actor).copyLink('https://example.com/activity-terms-and-conditions/HF-1/');
    expect(viewWaiver(actor.getSnapshot())).toEqual({ copying: true });
    finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(viewWaiver(actor.getSnapshot())).toEqual({ copying: false });
    actor.stop();
  });

  it('is idle before its chart has started', () => {
    expect(viewWaiver(undefined)).toEqual({ copying: false });
  });

  it('turns Copy link and Share into their events, with the link and the title', () => {
    const sent: unknown[] = [];
    const actor = { send: (event: unknown) => sent.push(event) } as unknown as Parameters<typeof waiverSenders>[0];
    const senders = waiverSenders(actor);
    senders.copyLink('https://example.com/activity-terms-and-conditions/HF-1/');
    senders.share('https://example.com/activity-terms-and-conditions/HF-1/', 'Activity terms');
    expect(sent).toEqual([
      { type: 'COPY_LINK_CLICKED', link: 'https://example.com/activity-terms-and-conditions/HF-1/' },
      {
        type: 'SHARE_CLICKED',
        link: 'https://example.com/activity-terms-and-conditions/HF-1/',
        title: 'Activity terms',
      },
    ]);
  });

  it('sends nothing when the screen has no chart yet', () => {
    const senders = waiverSenders(undefined);
    expect(senders.copyLink('x')).toBeUndefined();
    expect(senders.share('x', 'y')).toBeUndefined();
  });
});
