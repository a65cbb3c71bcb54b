/**
 * The waiver step (spec 001 §2 "Waiver (Activity Terms and Conditions)", §8): the buyer is shown
 * the sale's waiver link with copy-link and share buttons. Copying writes the link to the
 * clipboard and raises the success notification 'Link copied' through the root chart's notices;
 * a refused clipboard changes nothing (the link stays on screen to copy by hand). Sharing opens the
 * device's own share sheet where the browser has one. Continue belongs to the root chart.
 *
 * The link comes with each event (the screen builds it from the checkout's sale_reference), so the
 * chart keeps no copy of server data. Every side effect is a named actor or action the app provides.
 */
import { assertEvent, sendParent, setup } from 'xstate';
import { WAIVER_MESSAGES } from '../../contract/messages/waiver';
import { providedByApp } from '../providedByApp';

export type WaiverEvent =
  { type: 'COPY_LINK_CLICKED'; link: string } | { type: 'SHARE_CLICKED'; link: string; title: string };

export const waiverMachine = setup({
  types: {
    events: {} as WaiverEvent,
    children: {} as { copyLink: 'copyLink' },
  },
  actors: {
    /** Writes the link to the clipboard. */
    copyLink: providedByApp.call<void, { text: string }>('copyLink'),
  },
  actions: {
    /** Opens the device's own share sheet with the link (where the browser has one). */
    openShareSheet: providedByApp.action<{ url: string; title: string }>(),
    /** The root chart shows it with its other notifications. */
    notifyLinkCopied: sendParent({ type: 'NOTICE_RAISED', kind: 'success', text: WAIVER_MESSAGES.linkCopied }),
  },
}).createMachine({
  id: 'waiver',
  description: "The waiver link's copy and share buttons; the root's Continue moves on.",
  initial: 'idle',
  on: {
    SHARE_CLICKED: {
      actions: {
        type: 'openShareSheet',
        params: ({ event }) => ({ url: event.link, title: event.title }),
      },
      description: 'The share sheet is the device’s own: what the buyer does there is not ours to know.',
    },
  },
  states: {
    idle: {
      on: { COPY_LINK_CLICKED: { target: 'copying' } },
    },
    copying: {
      invoke: {
        src: 'copyLink',
        id: 'copyLink',
        input: ({ event }) => {
          assertEvent(event, 'COPY_LINK_CLICKED');
          return { text: event.link };
        },
        onDone: { target: 'idle', actions: 'notifyLinkCopied', description: "The success notification 'Link copied'." },
        onError: {
          target: 'idle',
          description: 'The browser refused the clipboard: the link stays on screen to copy by hand.',
        },
      },
    },
  },
});
