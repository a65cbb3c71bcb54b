import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Checkout } from '../../contract';
import { makeCheckout } from '../testing/checkoutFixture';
import { transferableTickets } from '../transfers/transferRows';
import { walk, type Expectation, type OracleQuestion, type WalkEvent } from '../testing/walk';
import {
  orderCompletedSenders,
  orderCompletedTiles,
  shareTextOf,
  viewOrderCompleted,
  type OrderCompletedView,
} from './orderCompleted.connect';
import { orderCompletedMachine } from './orderCompleted.machine';

/* ---------- spec 001 §8, §4 and §9, written here independently of the machine's constants ---------- */

const FEEDBACK_SENT = 'Your feedback has been sent. Thanks!';
const FEEDBACK_FAILED = 'Unable to send feedback. Please try again';
const SUBSCRIBED = 'You have been subscribed to important event updates';
const SUBSCRIBE_FAILED = 'Unable to add to subscription. Please try again later';
const COPIED = 'Copied';
const COPIED_FOR_MS = 2000;
const LINK = 'https://tickets.example/event/7/?ref=3-abc';
const TRANSFERABLE = [
  { ticket_id: 1, event_name: 'Summer Jazz on the Quay', ticket_name: 'General admission', qty: 2 },
];
const TODAY = { year: 2026, month: 11, day: 27 };

/* ---------- the oracle: a reference model of what the buyer sees, replayed from the events ---------- */

interface Model {
  subView: OrderCompletedView['subView'];
  mapEventId: number | null;
  dialog: 'closed' | 'feedback' | 'sending' | 'share';
  copy: 'idle' | 'copying' | 'copied';
  subscription: 'idle' | 'subscribing' | 'subscribed';
  referrer: 'loading' | 'ready' | 'none';
  referrerLink: string | null;
  transferred: boolean;
  /** The Transfer tickets form's chart is running (from opening the form until it sends, or Back). */
  transferForm: boolean;
  message: string;
  notice: OrderCompletedView['notice'];
}

const START: Model = {
  subView: 'overview',
  mapEventId: null,
  dialog: 'closed',
  copy: 'idle',
  subscription: 'idle',
  referrer: 'loading',
  referrerLink: null,
  transferred: false,
  transferForm: false,
  message: '',
  notice: null,
};

/** The buyer's view of a model: what the connect layer must show. */
function seen(m: Model): OrderCompletedView {
  return {
    subView: m.subView,
    mapEventId: m.mapEventId,
    feedback: {
      open: m.dialog === 'feedback' || m.dialog === 'sending',
      sending: m.dialog === 'sending',
      message: m.message,
      canSend: m.dialog !== 'sending' && m.message.trim() !== '',
    },
    share: {
      open: m.dialog === 'share',
      copyLabel: m.dialog === 'share' && m.copy === 'copied' ? COPIED : 'Copy',
      copying: m.dialog === 'share' && m.copy === 'copying',
    },
    subscription: { subscribing: m.subscription === 'subscribing', subscribed: m.subscription === 'subscribed' },
    referrerLink: m.referrerLink,
    transferred: m.transferred,
    notice: m.notice,
  };
}

function running(m: Model): string[] {
  return [
    ...(m.referrer === 'loading' ? ['loadReferrerLink'] : []),
    ...(m.dialog === 'sending' ? ['sendFeedback'] : []),
    ...(m.subscription === 'subscribing' ? ['subscribeToEvents'] : []),
    ...(m.dialog === 'share' && m.copy === 'copying' ? ['copyText'] : []),
    ...(m.transferForm ? ['transfers'] : []),
  ];
}

/** The model after an event, the calls it starts and the actions it asks for; null when the spec says nothing happens. */
function step(
  m: Model,
  event: WalkEvent,
): { next: Model; started?: Record<string, unknown[]>; sent?: Record<string, unknown[]> } | null {
  switch (event.type) {
    case 'TRANSFER_OPENED':
      // The form starts with the order's tickets that can be transferred and today's date.
      return m.subView === 'overview'
        ? {
            next: { ...m, subView: 'transfer_tickets', transferForm: true },
            started: { transfers: [{ tickets: event.tickets, today: event.today }] },
          }
        : null;
    case 'xstate.done.actor.transfers':
      // The form sent the tickets: can_transfer_tickets becomes false.
      return m.transferForm ? { next: { ...m, transferred: true, transferForm: false } } : null;
    case 'FIND_A_PLACE_OPENED':
      return m.subView === 'overview'
        ? { next: { ...m, subView: 'find_a_place', mapEventId: (event.eventId as number | undefined) ?? m.mapEventId } }
        : null;
    case 'MAP_EVENT_CHOSEN':
      return m.subView === 'find_a_place' ? { next: { ...m, mapEventId: event.eventId as number } } : null;
    case 'TICKETS_TRANSFERRED':
      // The transfer form reports its success; can_transfer_tickets becomes false.
      return m.subView === 'transfer_tickets' ? { next: { ...m, transferred: true } } : null;
    case 'BACK_CLICKED':
      return m.subView !== 'overview' ? { next: { ...m, subView: 'overview', transferForm: false } } : null;
    case 'FEEDBACK_OPENED':
      return m.dialog === 'closed' ? { next: { ...m, dialog: 'feedback' } } : null;
    case 'FEEDBACK_CHANGED':
      return m.dialog === 'feedback' ? { next: { ...m, message: event.message as string } } : null;
    case 'SEND_CLICKED':
      // Send is disabled while sending or when the message is empty.
      return m.dialog === 'feedback' && m.message.trim() !== ''
        ? { next: { ...m, dialog: 'sending' }, started: { sendFeedback: [{ message: m.message.trim() }] } }
        : null;
    case 'xstate.done.actor.sendFeedback':
      return { next: { ...m, dialog: 'closed', message: '', notice: { kind: 'success', text: FEEDBACK_SENT } } };
    case 'xstate.error.actor.sendFeedback':
      // The modal closes either way; what was written is kept for another try.
      return { next: { ...m, dialog: 'closed', notice: { kind: 'error', text: FEEDBACK_FAILED } } };
    case 'SHARE_OPENED':
      return m.dialog === 'closed' && m.referrerLink !== null
        ? { next: { ...m, dialog: 'share', copy: 'idle' } }
        : null;
    case 'COPY_CLICKED':
      return m.dialog === 'share' && m.copy !== 'copying'
        ? { next: { ...m, copy: 'copying' }, started: { copyText: [{ text: event.text }] } }
        : null;
    case 'xstate.done.actor.copyText':
      return { next: { ...m, copy: 'copied' } };
    case 'xstate.error.actor.copyText':
      return { next: { ...m, copy: 'idle' } };
    case 'SHARE_SHEET_CLICKED':
      return m.dialog === 'share' ? { next: m, sent: { openShareSheet: [{ text: event.text }] } } : null;
    case 'DIALOG_CLOSED':
      // Closing the feedback modal while it sends would lose the answer: it closes when the answer comes.
      return m.dialog === 'feedback' || m.dialog === 'share'
        ? { next: { ...m, dialog: 'closed', copy: 'idle' } }
        : null;
    case 'SUBSCRIBE_CLICKED':
      return m.subscription === 'idle'
        ? { next: { ...m, subscription: 'subscribing' }, started: { subscribeToEvents: [undefined] } }
        : null;
    case 'xstate.done.actor.subscribeToEvents':
      return { next: { ...m, subscription: 'subscribed', notice: { kind: 'success', text: SUBSCRIBED } } };
    case 'xstate.error.actor.subscribeToEvents':
      return { next: { ...m, subscription: 'idle', notice: { kind: 'error', text: SUBSCRIBE_FAILED } } };
    case 'xstate.done.actor.loadReferrerLink':
      return { next: { ...m, referrer: 'ready', referrerLink: event.output as string } };
    case 'xstate.error.actor.loadReferrerLink':
      // Silent (spec 001 §8): no notice, no link.
      return { next: { ...m, referrer: 'none' } };
    case 'NOTICE_DISMISSED':
      return { next: { ...m, notice: null } };
  }
  if (event.type.startsWith('xstate.after.') && m.dialog === 'share' && m.copy === 'copied')
    return { next: { ...m, copy: 'idle' } };
  return undefined as never;
}

function replay(earlier: Array<{ event: WalkEvent }>): Model {
  let m = START;
  for (const { event } of earlier) m = step(m, event)?.next ?? m;
  return m;
}

function oracle({
  event,
  earlier,
  unchanged,
}: OracleQuestion<OrderCompletedView>): Expectation<OrderCompletedView> | undefined {
  const before = replay(earlier);
  const result = step(before, event);
  if (result === undefined) return undefined;
  if (result === null) return unchanged();
  return { view: seen(result.next), running: running(result.next), started: result.started, sent: result.sent };
}

describe('order completed machine', () => {
  it('is walked at 100 %: sub-views, feedback, sharing with its copy button, subscribing and the referral link', async () => {
    const result = await walk<OrderCompletedView>({
      name: 'orderCompleted',
      machine: orderCompletedMachine,
      fakes: (kit) => ({
        actors: {
          loadReferrerLink: kit.controlled(),
          sendFeedback: kit.controlled(),
          subscribeToEvents: kit.controlled(),
          copyText: kit.controlled(),
          transfers: kit.controlled(),
        },
        actions: { openShareSheet: kit.spy('openShareSheet') },
      }),
      askIgnored: true,
      serializeState: (s) => JSON.stringify([s.value, s.context.message.trim() !== '']),
      // Every event the screen can send, so each state is also asked about the ones it must ignore.
      events: {
        TRANSFER_OPENED: [{ type: 'TRANSFER_OPENED', tickets: TRANSFERABLE, today: TODAY }],
        'xstate.done.actor.transfers': [{ type: 'xstate.done.actor.transfers', output: { kind: 'transferred' } }],
        TICKETS_TRANSFERRED: [{ type: 'TICKETS_TRANSFERRED' }],
        BACK_CLICKED: [{ type: 'BACK_CLICKED' }],
        FEEDBACK_OPENED: [{ type: 'FEEDBACK_OPENED' }],
        SEND_CLICKED: [{ type: 'SEND_CLICKED' }],
        SHARE_OPENED: [{ type: 'SHARE_OPENED' }],
        DIALOG_CLOSED: [{ type: 'DIALOG_CLOSED' }],
        SUBSCRIBE_CLICKED: [{ type: 'SUBSCRIBE_CLICKED' }],
        NOTICE_DISMISSED: [{ type: 'NOTICE_DISMISSED' }],
        FIND_A_PLACE_OPENED: [{ type: 'FIND_A_PLACE_OPENED' }, { type: 'FIND_A_PLACE_OPENED', eventId: 7 }],
        MAP_EVENT_CHOSEN: [{ type: 'MAP_EVENT_CHOSEN', eventId: 8 }],
        FEEDBACK_CHANGED: [
          { type: 'FEEDBACK_CHANGED', message: ' Lovely evening ' },
          { type: 'FEEDBACK_CHANGED', message: '  ' },
        ],
        COPY_CLICKED: [{ type: 'COPY_CLICKED', text: `Come along! ${LINK}` }],
        SHARE_SHEET_CLICKED: [{ type: 'SHARE_SHEET_CLICKED', text: `Come along! ${LINK}` }],
        'xstate.done.actor.loadReferrerLink': [{ type: 'xstate.done.actor.loadReferrerLink', output: LINK }],
        'xstate.error.actor.loadReferrerLink': [
          { type: 'xstate.error.actor.loadReferrerLink', error: new Error('404') },
        ],
        'xstate.done.actor.sendFeedback': [{ type: 'xstate.done.actor.sendFeedback', output: undefined }],
        'xstate.error.actor.sendFeedback': [{ type: 'xstate.error.actor.sendFeedback', error: new Error('500') }],
        'xstate.done.actor.subscribeToEvents': [{ type: 'xstate.done.actor.subscribeToEvents', output: undefined }],
        'xstate.error.actor.subscribeToEvents': [
          { type: 'xstate.error.actor.subscribeToEvents', error: new Error('500') },
        ],
        'xstate.done.actor.copyText': [{ type: 'xstate.done.actor.copyText', output: undefined }],
        'xstate.error.actor.copyText': [{ type: 'xstate.error.actor.copyText', error: new Error('denied') }],
      },
      // Paths the generated ones pass by: a blank message that must not be sent, a notice dismissed.
      extraPaths: [
        {
          events: [{ type: 'FEEDBACK_OPENED' }, { type: 'FEEDBACK_CHANGED', message: '  ' }, { type: 'SEND_CLICKED' }],
        },
        {
          events: [
            { type: 'SUBSCRIBE_CLICKED' },
            { type: 'xstate.error.actor.subscribeToEvents', error: new Error('500') },
            { type: 'NOTICE_DISMISSED' },
          ],
        },
        {
          events: [
            { type: 'SUBSCRIBE_CLICKED' },
            { type: 'xstate.done.actor.subscribeToEvents', output: undefined },
            { type: 'NOTICE_DISMISSED' },
            { type: 'SUBSCRIBE_CLICKED' },
          ],
        },
      ],
      view: (snapshot) => viewOrderCompleted(snapshot as never),
      initial: () => ({ view: seen(START), running: ['loadReferrerLink'], started: { loadReferrerLink: [undefined] } }),
      oracle,
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  }, 300_000);

  it("says 'Copied' for 2 seconds after a copy, then 'Copy' again", async () => {
    const { SimulatedClock } = await import('xstate');
    const clock = new SimulatedClock();
    const copied: string[] = [];
    const actor = createActor(
      orderCompletedMachine.provide({
        actors: {
          loadReferrerLink: fromPromise<string, void>(async () => LINK),
          copyText: fromPromise<void, { text: string }>(async ({ input }) => {
            copied.push(input.text);
          }),
        },
      }),
      { clock },
    ).start();
    await new Promise((r) => setTimeout(r, 0));
    const ui = orderCompletedSenders(actor.send);
    ui.openShare();
    ui.copy('share text');
    await new Promise((r) => setTimeout(r, 0));
    expect(copied).toEqual(['share text']);
    expect(viewOrderCompleted(actor.getSnapshot()).share.copyLabel).toBe(COPIED);
    clock.increment(COPIED_FOR_MS - 1);
    expect(viewOrderCompleted(actor.getSnapshot()).share.copyLabel).toBe(COPIED);
    clock.increment(1);
    expect(viewOrderCompleted(actor.getSnapshot()).share.copyLabel).toBe('Copy');
    actor.stop();
  });
});

describe('order completed senders', () => {
  it('turn each control of the screen into its event', () => {
    const sent: unknown[] = [];
    const ui = orderCompletedSenders((event) => sent.push(event));
    const order = makeCheckout();
    ui.openTransfer(order, new Date('2026-11-27T23:30:00Z'));
    ui.transferred();
    ui.back();
    ui.openFindAPlace();
    ui.chooseMapEvent(8);
    ui.openFeedback();
    ui.changeFeedback('Great');
    ui.sendFeedback();
    ui.openShare();
    ui.copy('text');
    ui.shareSheet('text');
    ui.closeDialog();
    ui.subscribe();
    ui.dismissNotice();
    expect(sent).toEqual([
      // The order's tickets that can be transferred, and the day in the UK (London is at UTC in November).
      { type: 'TRANSFER_OPENED', tickets: transferableTickets(order), today: { year: 2026, month: 11, day: 27 } },
      { type: 'TICKETS_TRANSFERRED' },
      { type: 'BACK_CLICKED' },
      { type: 'FIND_A_PLACE_OPENED' },
      { type: 'MAP_EVENT_CHOSEN', eventId: 8 },
      { type: 'FEEDBACK_OPENED' },
      { type: 'FEEDBACK_CHANGED', message: 'Great' },
      { type: 'SEND_CLICKED' },
      { type: 'SHARE_OPENED' },
      { type: 'COPY_CLICKED', text: 'text' },
      { type: 'SHARE_SHEET_CLICKED', text: 'text' },
      { type: 'DIALOG_CLOSED' },
      { type: 'SUBSCRIBE_CLICKED' },
      { type: 'NOTICE_DISMISSED' },
    ]);
  });
});

/* ---------- the tiles (spec 001 §2 "Order completed") and the share text (§9) ---------- */

const venue = {
  full_address: 'Ashcombe Estate, Ashcombe, Cirencester GL7 5HX',
  map_address: 'Ashcombe, Cirencester GL7 5HX',
  map_checkin: '2026-06-26',
};
function event(id: number, fields: Partial<Checkout['events'][number]> = {}): Checkout['events'][number] {
  return {
    id,
    title: `Event ${id}`,
    refund_protection: false,
    warn_customers_about_different_timeslots_message: null,
    ga: null,
    ga_conversion_id: null,
    fb_pixel: null,
    venue: null,
    has_livestream: false,
    access_online: null,
    reward_referrers: null,
    shareable_link: `/event/${id}/`,
    questions_intro: null,
    ...fields,
  };
}
const reward = (short: string) => ({ text: `Bring a friend and ${short}.`, short_text: short });
const line = (seated: boolean) => ({
  ...makeCheckout().tickets[0]!,
  seats: seated ? [{ section: 'Stalls', row: 'A', number: '1' }] : [],
});
const idle = { referrerLink: null, transferred: false, subscription: { subscribing: false, subscribed: false } };

describe('order completed tiles', () => {
  const facts = (fields: Partial<Parameters<typeof orderCompletedTiles>[0]> = {}) =>
    orderCompletedTiles({
      checkout: { events: [event(1)], tickets: [line(false)] },
      user: { is_event_subscribed: false },
      view: idle,
      canTransfer: true,
      accommodationMap: true,
      ...fields,
    });

  it('shows the livestream tile only when an event has one, linking to its online access address', () => {
    expect(facts().livestream).toBeNull();
    expect(
      facts({ checkout: { events: [event(1, { access_online: 'https://live.example/x' })], tickets: [] } }).livestream,
    ).toBeNull();
    const live = event(2, { title: 'Garden talks', has_livestream: true, access_online: 'https://live.example/talks' });
    expect(facts({ checkout: { events: [event(1), live], tickets: [] } }).livestream).toEqual({
      title: 'Garden talks',
      href: 'https://live.example/talks',
    });
  });

  it('shows transfer only when allowed, disabled when every ticket is seated', () => {
    expect(facts({ canTransfer: false }).transfer).toBeNull();
    // Once transferred, can_transfer_tickets is false (spec 001 §4 Transfers).
    expect(facts({ view: { ...idle, transferred: true } }).transfer).toBeNull();
    expect(facts().transfer).toEqual({ disabled: false });
    expect(facts({ checkout: { events: [event(1)], tickets: [line(true), line(false)] } }).transfer).toEqual({
      disabled: false,
    });
    expect(facts({ checkout: { events: [event(1)], tickets: [line(true), line(true)] } }).transfer).toEqual({
      disabled: true,
    });
    expect(facts({ checkout: { events: [event(1)], tickets: [] } }).transfer).toEqual({ disabled: false });
  });

  it('shows find a place to stay only when some event has a full venue address (and the site has a map)', () => {
    expect(facts().findAPlace).toBe(false);
    expect(
      facts({ checkout: { events: [event(1, { venue: { ...venue, full_address: ' ' } })], tickets: [] } }).findAPlace,
    ).toBe(false);
    expect(
      facts({ checkout: { events: [event(1, { venue: { ...venue, map_address: ' ' } })], tickets: [] } }).findAPlace,
    ).toBe(false);
    expect(facts({ checkout: { events: [event(1), event(2, { venue })], tickets: [] } }).findAPlace).toBe(true);
    expect(
      facts({ checkout: { events: [event(2, { venue })], tickets: [] }, accommodationMap: false }).findAPlace,
    ).toBe(false);
  });

  it("shows sharing only with a referrer link: 'Share & {short reward text}' when every event has a reward", () => {
    expect(facts().share).toBeNull();
    const withLink = { ...idle, referrerLink: LINK };
    expect(facts({ view: withLink, checkout: { events: [], tickets: [] } }).share).toEqual({
      label: 'Share with friends & family',
    });
    expect(facts({ view: withLink }).share).toEqual({ label: 'Share with friends & family' });
    expect(
      facts({
        view: withLink,
        checkout: { events: [event(1, { reward_referrers: reward('get a free drink') }), event(2)], tickets: [] },
      }).share,
    ).toEqual({ label: 'Share with friends & family' });
    expect(
      facts({
        view: withLink,
        checkout: {
          events: [
            event(1, { reward_referrers: reward('get a free drink') }),
            event(2, { reward_referrers: reward('get 5% off') }),
          ],
          tickets: [],
        },
      }).share,
    ).toEqual({ label: 'Share & get a free drink' });
  });

  it('shows the subscribe link only to a signed-in buyer not yet subscribed', () => {
    expect(facts().subscribe).toBe(true);
    expect(facts({ user: { is_event_subscribed: true } }).subscribe).toBe(false);
    expect(facts({ user: null }).subscribe).toBe(false);
    expect(facts({ view: { ...idle, subscription: { subscribing: false, subscribed: true } } }).subscribe).toBe(false);
  });

  it('shares what was bought with the brand and the absolute shareable link, or the reward text and the referrer link', () => {
    expect(shareTextOf([event(1, { title: 'Folk Night' })], LINK, 'Holdfast', 'https://tickets.example')).toBe(
      'I bought tickets with Holdfast for Folk Night (https://tickets.example/event/1/)',
    );
    const rewarded = event(1, { reward_referrers: reward('get a free drink') });
    expect(shareTextOf([rewarded], LINK, 'Holdfast', 'https://tickets.example')).toBe(
      `Bring a friend and get a free drink. ${LINK}`,
    );
    // A reward for only some events: what was bought.
    expect(
      shareTextOf([rewarded, event(2, { title: 'Folk Night' })], LINK, 'Holdfast', 'https://tickets.example'),
    ).toBe('I bought tickets with Holdfast for Event 1 (https://tickets.example/event/1/)');
    expect(shareTextOf([], LINK, 'Holdfast', 'https://tickets.example')).toBe(LINK);
  });
});
