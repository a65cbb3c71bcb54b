/**
 * The queue page's chart, walked against an oracle written from the waiting room's rules: a browser
 * without a place joins (with its proof of work) before anything else; a place is asked about again
 * when the server says; admission takes the buyer to the tickets and ends the asking; 'sold out'
 * offers the waiting list and keeps asking, since held tickets may be released; a lost connection
 * keeps the place and tries again. The waiting list takes one e-mail address at a time.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { walk, type Expectation, type OracleQuestion, type PartialView } from '../testing/walk';
import { waitingRoomMachine, type WaitingListRequest } from './waitingRoom.machine';
import { viewWaitingRoom, type WaitingRoomView } from './waitingRoom.connect';
import type { QueueStatus } from '../../contract/waitingRoom';

const types = [{ id: 7, name: 'Standing' }];
const base = {
  position: null,
  ahead: null,
  wait_seconds: null,
  progress: 0,
  opens_in_seconds: null,
  poll_ms: 4000,
  event_url: '/event/3/',
  event_title: 'Harbour Nights',
  ticket_types: types,
};
/** 'ended' never reaches the chart: the page's script takes a spent place to the server's page, which says so. */
const statuses: Record<Exclude<QueueStatus['state'], 'ended'>, QueueStatus> = {
  'no-place': { ...base, state: 'no-place', poll_ms: 1000 },
  'before-sale': { ...base, state: 'before-sale', opens_in_seconds: 150 },
  waiting: { ...base, state: 'waiting', position: 12, ahead: 11, wait_seconds: 130, progress: 0.25 },
  admitted: { ...base, state: 'admitted', progress: 1 },
  'sold-out': { ...base, state: 'sold-out', poll_ms: 8000 },
};

/** The words, written out here so a changed sentence fails the walk. */
const SAID = {
  checking: 'Finding your place in the queue…',
  joining: 'Checking this browser before giving it a place in the queue…',
  joinFailed: 'This browser could not be given a place in the queue. Please try again.',
  offline: 'The queue cannot be reached just now. Your place is kept; trying again…',
  admitted: 'It is your turn. Taking you to the tickets…',
  soldOut:
    'Sold out: every ticket is sold or held by another buyer. If held tickets are released, the queue opens again.',
  beforeSale:
    'The on-sale opens in 3 minutes. Everyone here before it opens gets a place in a random order; later arrivals join the end of the line.',
  waiting: 'You are number 12 in the queue. Estimated wait: about 2 minutes.',
  listFailed: 'You could not be added to the waiting list. Please try again.',
};

type View = WaitingRoomView & { asking: boolean; joining: boolean };

/** What a status from the server shows. */
function shown(status: QueueStatus): PartialView<View> {
  switch (status.state) {
    case 'before-sale':
      return { phase: 'before-sale', message: SAID.beforeSale, position: null, canRetry: false, offerTurnMail: true };
    case 'waiting':
      return {
        phase: 'waiting',
        message: SAID.waiting,
        position: 12,
        progress: 0.25,
        canRetry: false,
        offerTurnMail: true,
      };
    case 'admitted':
      return {
        phase: 'admitted',
        message: SAID.admitted,
        position: null,
        progress: 1,
        canRetry: false,
        offerTurnMail: false,
      };
    case 'sold-out':
      return {
        phase: 'sold-out',
        message: SAID.soldOut,
        position: null,
        offerWaitingList: true,
        ticketTypes: types,
        canRetry: false,
        offerTurnMail: false,
      };
    default:
      throw new Error('no-place is not shown');
  }
}

function oracle({ event, view, earlier, unchanged }: OracleQuestion<View>): Expectation<View> | undefined {
  /** The last status the server gave (a place's), which the page shows while it asks again. */
  const lastHeard = earlier
    .map((step) => step.event)
    .filter((e) => e.type === 'xstate.done.actor.fetchStatus' || e.type === 'xstate.done.actor.join')
    .map((e) => e.output as QueueStatus)
    .filter((s) => s.state !== 'no-place')
    .at(-1);
  const running = (v: { asking: boolean; joining: boolean; listSending: boolean }) => [
    ...(v.asking ? ['fetchStatus'] : []),
    ...(v.joining ? ['join'] : []),
    ...(v.listSending ? ['joinWaitingList'] : []),
  ];
  const then = (next: PartialView<View>, extra: Partial<Expectation<View>> = {}): Expectation<View> => {
    const flags = {
      asking: next.asking ?? false,
      joining: next.joining ?? false,
      listSending: next.listSending ?? view.listSending,
    };
    return { view: { ...next, ...flags }, running: running(flags), ...extra };
  };
  const answered = (status: QueueStatus, fromJoin: boolean): Expectation<View> => {
    if (status.state === 'no-place')
      return fromJoin
        ? then({ phase: 'join-failed', message: SAID.joinFailed, canRetry: true })
        : then({ phase: 'joining', message: SAID.joining, joining: true }, { started: { join: [undefined] } });
    if (status.state === 'admitted') return then(shown(status), { sent: { enterShop: [{ url: '/event/3/' }] } });
    return then(shown(status));
  };
  const asking = view.asking;
  const waitingAfterStatus = ['before-sale', 'waiting', 'sold-out'].includes(view.phase) && !asking;

  switch (event.type) {
    case 'xstate.done.actor.fetchStatus':
      return answered(event.output as QueueStatus, false);
    case 'xstate.error.actor.fetchStatus':
      return then({ phase: 'offline', message: SAID.offline });
    case 'xstate.done.actor.join':
      return answered(event.output as QueueStatus, true);
    case 'xstate.error.actor.join':
      return then({ phase: 'join-failed', message: SAID.joinFailed, canRetry: true });
    case 'RETRY_CLICKED':
      if (view.phase !== 'join-failed') return unchanged();
      return then(
        { phase: 'joining', message: SAID.joining, canRetry: false, joining: true },
        { started: { join: [undefined] } },
      );
    case 'xstate.after.pollDelay.waitingRoom.queue.waiting':
    case 'xstate.after.pollDelay.waitingRoom.queue.soldOut':
      // The page asks again, still showing what it last heard.
      if (!waitingAfterStatus) return undefined;
      return then(
        { phase: view.phase, message: view.message, asking: true },
        { started: { fetchStatus: [undefined] } },
      );
    case 'NUDGED':
      // The server says to ask now: heard while the page waits to ask again, and only then.
      if (!waitingAfterStatus) return unchanged();
      return then(
        { phase: view.phase, message: view.message, asking: true },
        { started: { fetchStatus: [undefined] } },
      );
    case 'STATUS_PUSHED': {
      if (!waitingAfterStatus) return unchanged();
      const pushed = (event as unknown as { status: QueueStatus }).status;
      // 'Sold out' is shown as a poll's answer would be; anything else pushed is asked for.
      if (pushed.state === 'sold-out') return then(shown(pushed));
      return then(
        { phase: view.phase, message: view.message, asking: true },
        { started: { fetchStatus: [undefined] } },
      );
    }
    case 'xstate.after.retryDelay.waitingRoom.queue.offline':
      if (view.phase !== 'offline') return undefined;
      return then(
        lastHeard ? { ...shown(lastHeard), asking: true } : { phase: 'checking', message: SAID.checking, asking: true },
        { started: { fetchStatus: [undefined] } },
      );
    case 'WAITING_LIST_SUBMITTED': {
      if (view.listSending || view.listJoined) return unchanged();
      const request = { ticketTypeId: 7, email: 'ada@example.test', quantity: 2 };
      return {
        view: { ...view, listSending: true, listMessage: null, offerWaitingList: true },
        running: running({ asking: view.asking, joining: view.joining, listSending: true }),
        started: { joinWaitingList: [request] },
      };
    }
    case 'xstate.done.actor.joinWaitingList': {
      const output = event.output as { joined: boolean; message: string };
      return {
        view: {
          ...view,
          listSending: false,
          listJoined: output.joined,
          listMessage: output.message,
          offerWaitingList: true,
        },
        running: running({ asking: view.asking, joining: view.joining, listSending: false }),
      };
    }
    case 'xstate.error.actor.joinWaitingList':
      return {
        view: { ...view, listSending: false, listJoined: false, listMessage: SAID.listFailed, offerWaitingList: true },
        running: running({ asking: view.asking, joining: view.joining, listSending: false }),
      };
  }
  return undefined;
}

describe('waitingRoom machine', () => {
  it('is walked at 100 %: joining, waiting, admission, sold out and the waiting list, against the oracle', async () => {
    const done = (status: QueueStatus) => ({ output: status });
    const result = await walk<View>({
      name: 'waitingRoom',
      machine: waitingRoomMachine,
      fakes: (kit) => ({
        actors: { fetchStatus: kit.controlled(), join: kit.controlled(), joinWaitingList: kit.controlled() },
        actions: { enterShop: kit.spy('enterShop') },
      }),
      askIgnored: true,
      events: {
        'xstate.done.actor.fetchStatus': Object.values(statuses).map((s) => ({
          type: 'xstate.done.actor.fetchStatus',
          ...done(s),
        })),
        'xstate.error.actor.fetchStatus': [{ type: 'xstate.error.actor.fetchStatus', error: new Error('offline') }],
        'xstate.done.actor.join': Object.values(statuses).map((s) => ({ type: 'xstate.done.actor.join', ...done(s) })),
        'xstate.error.actor.join': [{ type: 'xstate.error.actor.join', error: new Error('403') }],
        RETRY_CLICKED: [{ type: 'RETRY_CLICKED' }],
        NUDGED: [{ type: 'NUDGED' }],
        STATUS_PUSHED: [
          { type: 'STATUS_PUSHED', status: statuses['sold-out'] },
          { type: 'STATUS_PUSHED', status: statuses.waiting },
        ],
        WAITING_LIST_SUBMITTED: [
          { type: 'WAITING_LIST_SUBMITTED', ticketTypeId: 7, email: 'ada@example.test', quantity: 2 },
        ],
        'xstate.done.actor.joinWaitingList': [
          {
            type: 'xstate.done.actor.joinWaitingList',
            output: { joined: true, message: 'You are on the waiting list for Standing.' },
          },
          {
            type: 'xstate.done.actor.joinWaitingList',
            output: { joined: false, message: 'Give a valid e-mail address.' },
          },
        ],
        'xstate.error.actor.joinWaitingList': [
          { type: 'xstate.error.actor.joinWaitingList', error: new Error('offline') },
        ],
      },
      view: (snapshot) => ({
        ...viewWaitingRoom(snapshot as never),
        asking: snapshot.children.fetchStatus !== undefined,
        joining: snapshot.children.join !== undefined,
      }),
      initial: () => ({
        view: {
          phase: 'checking',
          message: SAID.checking,
          asking: true,
          joining: false,
          listSending: false,
          offerWaitingList: false,
        },
        running: ['fetchStatus'],
        started: { fetchStatus: [undefined] },
      }),
      oracle,
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });
});

describe('waitingRoom machine: when it asks again', () => {
  /** The chart with the server's answers in order (an Error is a failed call), its asks counted, on a clock the test moves. */
  function started(answers: (QueueStatus | Error)[], listAnswer?: { joined: boolean; message: string } | Error) {
    const clock = new SimulatedClock();
    const asked: string[] = [];
    const entered: string[] = [];
    const answer = (name: string) =>
      fromPromise<QueueStatus, void>(async () => {
        asked.push(name);
        const next = answers.shift();
        if (next === undefined) return new Promise<QueueStatus>(() => undefined);
        if (next instanceof Error) throw next;
        return next;
      });
    const steps: string[] = [];
    const inspect = (e: { type: string; event?: { type: string } }) =>
      void (e.type === '@xstate.microstep' && e.event && steps.push(e.event.type));
    const actor = createActor(
      waitingRoomMachine.provide({
        actors: {
          fetchStatus: answer('fetchStatus'),
          join: answer('join'),
          joinWaitingList: fromPromise<{ joined: boolean; message: string }, WaitingListRequest>(async () => {
            if (listAnswer instanceof Error) throw listAnswer;
            return listAnswer!;
          }),
        },
        actions: { enterShop: (_, params: { url: string }) => void entered.push(params.url) },
      }),
      { clock, inspect },
    ).start();
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    return { actor, clock, asked, entered, settle, steps };
  }

  it('asks again after the poll interval the server gave, not before, while waiting and while sold out', async () => {
    const { clock, asked, settle } = started([
      statuses.waiting,
      { ...statuses['sold-out'], poll_ms: 8000 },
      statuses.waiting,
    ]);
    await settle();
    expect(asked).toEqual(['fetchStatus']);
    clock.increment(3999);
    await settle();
    expect(asked).toHaveLength(1);
    clock.increment(1);
    await settle();
    expect(asked).toHaveLength(2);
    // Sold out: asked again after its own, longer interval, as held tickets may come back.
    clock.increment(7999);
    await settle();
    expect(asked).toHaveLength(2);
    clock.increment(1);
    await settle();
    expect(asked).toHaveLength(3);
  });

  it('keeps the place through a lost connection and tries again after 5 seconds', async () => {
    const { actor, clock, asked, settle } = started([new Error('offline'), statuses.waiting]);
    await settle();
    expect(viewWaitingRoom(actor.getSnapshot() as never).phase).toBe('offline');
    clock.increment(4999);
    await settle();
    expect(asked).toHaveLength(1);
    clock.increment(1);
    await settle();
    expect(asked).toHaveLength(2);
    expect(viewWaitingRoom(actor.getSnapshot() as never).phase).toBe('waiting');
  });

  it('stops asking once admitted and takes the buyer to the event the server named', async () => {
    const { actor, clock, asked, entered, settle, steps } = started([
      { ...statuses.admitted, event_url: '/event/99/' },
    ]);
    await settle();
    expect(entered).toEqual(['/event/99/']);
    expect(actor.getSnapshot().value).toMatchObject({ queue: 'admitted' });
    // The queue is over for this buyer (its region is done); the waiting list is not.
    expect(steps).toContain('xstate.done.state.waitingRoom.queue');
    clock.increment(60_000);
    await settle();
    expect(asked).toHaveLength(1);
  });

  it('keeps the waiting list offered with the server’s words when it does not take the address, and marks it failed', async () => {
    const { actor, settle } = started([statuses['sold-out']], {
      joined: false,
      message: 'Give a valid e-mail address.',
    });
    await settle();
    actor.send({ type: 'WAITING_LIST_SUBMITTED', ticketTypeId: 7, email: 'x', quantity: 1 });
    await settle();
    expect(actor.getSnapshot().context).toMatchObject({
      listMessage: 'Give a valid e-mail address.',
      listFailed: true,
    });
    expect(actor.getSnapshot().value).toMatchObject({ waitingList: 'idle' });
  });
});

describe('waitingRoom machine: what the app must provide', () => {
  it('names each call it was not given, when it makes it', async () => {
    const errors: string[] = [];
    const inspect = (e: { type: string; event?: { type: string; error?: unknown } }) => {
      if (e.type === '@xstate.event' && e.event?.type.startsWith('xstate.error.actor.'))
        errors.push(String((e.event.error as Error).message));
    };
    const bare = createActor(waitingRoomMachine, { inspect }).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const noPlace = createActor(
      waitingRoomMachine.provide({
        actors: { fetchStatus: fromPromise<QueueStatus, void>(async () => statuses['no-place']) },
      }),
      { inspect },
    ).start();
    noPlace.send({ type: 'WAITING_LIST_SUBMITTED', ticketTypeId: 7, email: 'ada@example.test', quantity: 1 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toEqual(
      expect.arrayContaining([
        'fetchStatus is provided by the app',
        'join is provided by the app',
        'joinWaitingList is provided by the app',
      ]),
    );
    bare.stop();
    noPlace.stop();
  });
});

describe('waitingRoom machine: the waiting list', () => {
  it('takes the address once, with the server’s words and nothing marked failed', async () => {
    const actor = createActor(
      waitingRoomMachine.provide({
        actors: {
          fetchStatus: fromPromise<QueueStatus, void>(async () => statuses['sold-out']),
          joinWaitingList: fromPromise<{ joined: boolean; message: string }, WaitingListRequest>(async () => ({
            joined: true,
            message: 'You are on the waiting list for Standing.',
          })),
        },
      }),
    ).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'WAITING_LIST_SUBMITTED', ticketTypeId: 7, email: 'ada@example.test', quantity: 2 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().context).toMatchObject({
      listMessage: 'You are on the waiting list for Standing.',
      listFailed: false,
    });
    expect(actor.getSnapshot().value).toMatchObject({ waitingList: 'joined' });
    actor.stop();
  });
});
