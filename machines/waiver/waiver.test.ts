import { describe, expect, it } from 'vitest';
import { walk, type Expectation, type OracleQuestion } from '../testing/walk';
import { viewWaiver, type WaiverView } from './waiver.connect';
import { waiverMachine } from './waiver.machine';

const LINK = 'https://holdfast.example/activity-terms-and-conditions/HF-ABCDEFGH/';
const TITLE = 'Activity terms and conditions';

/**
 * Spec 001 §2 "Waiver" and §8: the copy button writes the link to the clipboard and the buyer is
 * told 'Link copied' (a success notification, through the root's notices); a refused clipboard
 * tells nothing; share opens the device's share sheet with the link at any time.
 */
function waiverOracle({ event, view, unchanged }: OracleQuestion<WaiverView>): Expectation<WaiverView> | undefined {
  switch (event.type) {
    case 'COPY_LINK_CLICKED':
      // A second press while the first copy is under way copies nothing more.
      if (view.copying) return unchanged();
      return { view: { copying: true }, running: ['copyLink'], started: { copyLink: [{ text: LINK }] } };
    case 'xstate.done.actor.copyLink':
      return {
        view: { copying: false },
        running: [],
        sent: { parent: [{ type: 'NOTICE_RAISED', kind: 'success', text: 'Link copied' }] },
      };
    case 'xstate.error.actor.copyLink':
      return { view: { copying: false }, running: [] };
    case 'SHARE_CLICKED':
      return {
        view,
        running: view.copying ? ['copyLink'] : [],
        sent: { openShareSheet: [{ url: LINK, title: TITLE }] },
      };
  }
  return undefined;
}

describe('waiver machine', () => {
  it("is walked at 100 %: copying says 'Link copied' once the clipboard has the link, and share opens the share sheet", async () => {
    const result = await walk<WaiverView>({
      name: 'waiver',
      machine: waiverMachine,
      fakes: (kit) => ({
        actors: { copyLink: kit.controlled() },
        actions: { openShareSheet: kit.spy('openShareSheet') },
      }),
      parentActions: ['notifyLinkCopied'],
      askIgnored: true,
      events: {
        COPY_LINK_CLICKED: [{ type: 'COPY_LINK_CLICKED', link: LINK }],
        SHARE_CLICKED: [{ type: 'SHARE_CLICKED', link: LINK, title: TITLE }],
        'xstate.done.actor.copyLink': [{ type: 'xstate.done.actor.copyLink', output: undefined }],
        'xstate.error.actor.copyLink': [{ type: 'xstate.error.actor.copyLink', error: new Error('denied') }],
      },
      view: (snapshot) => viewWaiver(snapshot as never),
      initial: () => ({ view: { copying: false }, running: [] }),
      oracle: waiverOracle,
      extraPaths: [
        {
          // Copied twice: each success says so.
          events: [
            { type: 'COPY_LINK_CLICKED', link: LINK },
            { type: 'xstate.done.actor.copyLink', output: undefined },
            { type: 'COPY_LINK_CLICKED', link: LINK },
            { type: 'xstate.error.actor.copyLink', error: new Error('denied') },
            { type: 'COPY_LINK_CLICKED', link: LINK },
          ],
        },
      ],
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });
});
