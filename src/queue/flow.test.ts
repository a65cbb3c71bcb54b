/**
 * The queue page runs its flow without XState (./flow.ts); the waiting room chart stays its
 * definition. Here both are driven through the same answers, in the same order, along many seeded
 * random walks (every answer the server can give to a status, a join and the waiting list, failures,
 * the server's poll interval and the retry delay coming round, the buyer's clicks), and after every
 * step they must agree: the same state, the same context, the same calls in flight, the same timer
 * set for the same time, the same visits to the tickets, and so the same page.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { QueueStatus } from '../../contract/waitingRoom';
import { waitingRoomMachine, type WaitingListRequest } from '../../machines/waitingRoom/waitingRoom.machine';
import { viewWaitingRoom } from '../../machines/waitingRoom/waitingRoom.connect';
import { runQueue, type QueueEffects } from './flow';

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
const STATUSES: QueueStatus[] = [
  { ...base, state: 'no-place', poll_ms: 1000 },
  { ...base, state: 'before-sale', opens_in_seconds: 150, poll_ms: 9000 },
  { ...base, state: 'waiting', position: 12, ahead: 11, wait_seconds: 130, progress: 0.25 },
  { ...base, state: 'admitted', progress: 1, poll_ms: 3000 },
  { ...base, state: 'sold-out', poll_ms: 8000 },
];
const LIST_ANSWERS = [
  { joined: true, message: 'You are on the waiting list for Standing.' },
  { joined: false, message: 'Give a valid e-mail address.' },
];
const REQUEST: WaitingListRequest = { ticketTypeId: 7, email: 'ada@example.test', quantity: 2 };

type CallName = 'fetchStatus' | 'join' | 'joinWaitingList';
interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Calls left waiting for the test to answer, timers for it to fire, and where the buyer was sent. */
class World {
  calls = new Map<CallName, Pending>();
  timers = new Map<number, { ms: number; fire: () => void }>();
  shops: string[] = [];
  private nextTimer = 1;
  call<T>(name: CallName): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      this.calls.set(name, { resolve: resolve as (v: unknown) => void, reject }),
    );
  }
  answer(name: CallName, outcome: { value: unknown } | { error: unknown }) {
    const pending = this.calls.get(name)!;
    this.calls.delete(name);
    if ('value' in outcome) pending.resolve(outcome.value);
    else pending.reject(outcome.error);
  }
  setTimer(ms: number, fire: () => void): number {
    const id = this.nextTimer++;
    this.timers.set(id, { ms, fire });
    return id;
  }
  fireTimer(): void {
    const [id, timer] = [...this.timers.entries()][0]!;
    this.timers.delete(id);
    timer.fire();
  }
  seen() {
    return {
      calls: [...this.calls.keys()].sort(),
      timers: [...this.timers.values()].map((t) => t.ms).sort(),
      shops: [...this.shops],
    };
  }
}

function chart(first: QueueStatus | null) {
  const world = new World();
  const actor = createActor(
    waitingRoomMachine.provide({
      actors: {
        fetchStatus: fromPromise(() => world.call<QueueStatus>('fetchStatus')),
        join: fromPromise(() => world.call<QueueStatus>('join')),
        joinWaitingList: fromPromise(() => world.call<{ joined: boolean; message: string }>('joinWaitingList')),
      },
      actions: { enterShop: (_, params) => void world.shops.push(params.url) },
    }),
    {
      clock: {
        setTimeout: (fn, ms) => world.setTimer(ms, fn),
        clearTimeout: (id) => void world.timers.delete(id as number),
      },
    },
  );
  actor.start();
  if (first) world.answer('fetchStatus', { value: first });
  return {
    world,
    state: () => {
      const s = actor.getSnapshot();
      return { value: s.value, context: s.context, view: viewWaitingRoom(s) };
    },
    retry: () => actor.send({ type: 'RETRY_CLICKED' }),
    submit: () => actor.send({ type: 'WAITING_LIST_SUBMITTED', ...REQUEST }),
    nudge: () => actor.send({ type: 'NUDGED' }),
    push: (status: QueueStatus) => actor.send({ type: 'STATUS_PUSHED', status }),
  };
}

function page(first: QueueStatus | null) {
  const world = new World();
  const effects: QueueEffects = {
    fetchStatus: () => world.call('fetchStatus'),
    join: () => world.call('join'),
    joinWaitingList: () => world.call('joinWaitingList'),
    enterShop: (url) => void world.shops.push(url),
    after: (ms, then) => {
      const id = world.setTimer(ms, then);
      return () => void world.timers.delete(id);
    },
  };
  const flow = runQueue(effects, () => {}, first);
  return {
    world,
    state: () => {
      const s = flow.snapshot();
      return { value: s.value, context: s.context, view: viewWaitingRoom(s) };
    },
    retry: () => flow.retry(),
    submit: () => flow.joinWaitingList(REQUEST),
    nudge: () => flow.nudge(),
    push: (status: QueueStatus) => flow.pushed(status),
  };
}

type Side = ReturnType<typeof chart>;
type Step = { label: string; run: (side: Side) => void };

/** What can happen next, read from the chart's side (the page's must offer the same, checked before). */
function steps(side: Side): Step[] {
  const out: Step[] = [
    { label: 'retry clicked', run: (s) => s.retry() },
    { label: 'waiting list sent', run: (s) => s.submit() },
    { label: 'the server nudges', run: (s) => s.nudge() },
    // The server pushes only 'sold out'; anything else pushed is asked for again.
    { label: 'the server pushes sold out', run: (s) => s.push(STATUSES[4]!) },
    { label: 'the server pushes waiting', run: (s) => s.push(STATUSES[2]!) },
  ];
  const { calls, timers } = side.world.seen();
  for (const name of calls) {
    const answers = name === 'joinWaitingList' ? LIST_ANSWERS : STATUSES;
    answers.forEach((value, i) =>
      out.push({ label: `${name} answers ${i}`, run: (s) => s.world.answer(name as CallName, { value }) }),
    );
    out.push({ label: `${name} fails`, run: (s) => s.world.answer(name as CallName, { error: new Error('offline') }) });
  }
  if (timers.length > 0) out.push({ label: 'the timer comes round', run: (s) => s.world.fireTimer() });
  return out;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A small seeded generator, so every run walks the same paths. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

describe('the queue page flow', () => {
  it('agrees with the waiting room chart after every step of 400 walks, from a first status painted by the server or from none', async () => {
    const next = random(30);
    const statesSeen = new Set<string>();
    for (let walk = 0; walk < 400; walk++) {
      const first = walk % 3 === 0 ? null : STATUSES[Math.floor(next() * STATUSES.length)]!;
      const a = chart(first);
      const b = page(first) as unknown as Side;
      await settle();
      const path: string[] = [`first ${first?.state ?? 'none'}`];
      for (let i = 0; i < 14; i++) {
        expect(b.state(), path.join(' → ')).toEqual(a.state());
        expect(b.world.seen(), path.join(' → ')).toEqual(a.world.seen());
        const value = a.state().value as { queue: string; waitingList: string };
        statesSeen.add(`queue.${value.queue}`).add(`waitingList.${value.waitingList}`);
        if (value.queue === 'admitted') break;
        const choices = steps(a);
        const step = choices[Math.floor(next() * choices.length)]!;
        path.push(step.label);
        step.run(a);
        step.run(b);
        await settle();
      }
    }
    // Every state of the chart was reached on the way.
    expect([...statesSeen].sort()).toEqual(
      ['admitted', 'checking', 'joinFailed', 'joining', 'offline', 'soldOut', 'waiting']
        .map((s) => `queue.${s}`)
        .concat(['idle', 'joined', 'sending'].map((s) => `waitingList.${s}`))
        .sort(),
    );
  });
});
