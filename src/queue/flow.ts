/**
 * The queue page's flow, run without a chart library: the waiting room chart
 * (machines/waitingRoom/waitingRoom.machine.ts) is the flow's definition, and this runs it with the
 * same states, the same context and the same calls, so that the page's script stays a few kilobytes.
 * flow.test.ts drives this and the chart side by side through the same answers and checks that they
 * agree after every step; the page is drawn from either by the chart's own view (viewWaitingRoom).
 */
import type { QueueStatus } from '../../contract/waitingRoom';
import type { WaitingListRequest, WaitingRoomContext } from '../../machines/waitingRoom/waitingRoom.machine';

export type QueueState = 'checking' | 'joining' | 'joinFailed' | 'waiting' | 'soldOut' | 'offline' | 'admitted';
export type ListState = 'idle' | 'sending' | 'joined';

/** What the chart's snapshot has that the view reads. */
export interface QueueSnapshot {
  value: { queue: QueueState; waitingList: ListState };
  context: WaitingRoomContext;
}

/** The chart's actors, its action and its delays, as the page provides them. */
export interface QueueEffects {
  fetchStatus(): Promise<QueueStatus>;
  join(): Promise<QueueStatus>;
  joinWaitingList(request: WaitingListRequest): Promise<{ joined: boolean; message: string }>;
  enterShop(url: string): void;
  /** Calls `then` once `ms` have passed, unless the returned function is called first. */
  after(ms: number, then: () => void): () => void;
}

/** The chart's retryDelay. */
export const RETRY_MS = 5000;

/**
 * Starts the flow. `first` is a status the server already painted (the buyer's place from its
 * cookie): the flow goes on from it as the chart goes on from its first answer, without asking again.
 */
export function runQueue(
  effects: QueueEffects,
  show: (snapshot: QueueSnapshot) => void,
  first: QueueStatus | null = null,
) {
  let snapshot: QueueSnapshot = {
    value: { queue: 'checking', waitingList: 'idle' },
    context: { status: null, listMessage: null, listFailed: false },
  };
  /** The chart's one delayed transition of the state it is in; leaving the state cancels it. */
  let cancelTimer: (() => void) | null = null;
  const wait = (ms: number, then: () => void) => {
    cancelTimer = effects.after(ms, () => {
      cancelTimer = null;
      then();
    });
  };
  const to = (queue: QueueState | null, waitingList: ListState | null, context: Partial<WaitingRoomContext> = {}) => {
    if (queue !== null && cancelTimer) {
      cancelTimer();
      cancelTimer = null;
    }
    snapshot = {
      value: { queue: queue ?? snapshot.value.queue, waitingList: waitingList ?? snapshot.value.waitingList },
      context: { ...snapshot.context, ...context },
    };
    show(snapshot);
  };

  function heard(status: QueueStatus, fromJoin: boolean) {
    if (status.state === 'no-place') return fromJoin ? to('joinFailed', null) : joining();
    if (status.state === 'admitted') {
      to('admitted', null, { status });
      return effects.enterShop(status.event_url);
    }
    to(status.state === 'sold-out' ? 'soldOut' : 'waiting', null, { status });
    wait(status.poll_ms, checking);
  }
  function checking() {
    to('checking', null);
    effects.fetchStatus().then(
      (status) => heard(status, false),
      () => {
        to('offline', null);
        wait(RETRY_MS, checking);
      },
    );
  }
  function joining() {
    to('joining', null);
    effects.join().then(
      (status) => heard(status, true),
      () => to('joinFailed', null),
    );
  }

  if (first) heard(first, false);
  else checking();

  return {
    snapshot: () => snapshot,
    retry() {
      if (snapshot.value.queue === 'joinFailed') joining();
    },
    /** The server said to ask now (it may be this buyer's turn): heard only while waiting or sold out. */
    nudge() {
      if (snapshot.value.queue === 'waiting' || snapshot.value.queue === 'soldOut') checking();
    },
    /** A status the server pushed ('sold out'), heard as a poll's answer while waiting or sold out; any other asks now. */
    pushed(status: QueueStatus) {
      if (snapshot.value.queue !== 'waiting' && snapshot.value.queue !== 'soldOut') return;
      if (status.state === 'sold-out') heard(status, false);
      else checking();
    },
    joinWaitingList(request: WaitingListRequest) {
      if (snapshot.value.waitingList !== 'idle') return;
      to(null, 'sending', { listMessage: null, listFailed: false });
      effects.joinWaitingList(request).then(
        (answer) =>
          to(null, answer.joined ? 'joined' : 'idle', { listMessage: answer.message, listFailed: !answer.joined }),
        () => to(null, 'idle', { listMessage: null, listFailed: true }),
      );
    },
  };
}
