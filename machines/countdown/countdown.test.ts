import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type EventObject } from 'xstate';
import { walk } from '../testing/walk';
import { countdownMachine } from './countdown.machine';
import { viewCountdown } from './countdown.connect';

describe('countdown machine', () => {
  it('is walked at 100 % of its states and transitions', async () => {
    const result = await walk({
      name: 'countdown',
      machine: countdownMachine,
      fakes: () => ({ actors: { ticker: fromCallback(() => {}) } }),
      parentActions: ['reportExpired'],
      events: {
        START: [{ type: 'START', secondsRemaining: 2 }],
        SYNC: [{ type: 'SYNC', secondsRemaining: 3 }, { type: 'SYNC', secondsRemaining: 0 }],
        TICK: [{ type: 'TICK', elapsedMs: 1000 }],
      },
      check: ({ event, before, after, kit }) => {
        const view = viewCountdown(after as never);
        expect(view.secondsRemaining).toBeGreaterThanOrEqual(0);
        const expiredNow = after.matches('expired') && !before.matches('expired');
        const told = kit.log.filter((e) => e.to === 'parent' && (e.event as { type: string }).type === 'COUNTDOWN_EXPIRED');
        if (expiredNow) expect(told.length).toBeGreaterThan(0);
        if (event.type === 'STOP' && before.matches('running')) expect(view.running).toBe(false);
      },
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });

  it('subtracts the time that really passed, so a throttled tab catches up, and never shows less than 0', () => {
    const ticks: Array<(e: { type: 'TICK'; elapsedMs: number }) => void> = [];
    const parentEvents: EventObject[] = [];
    const parent = createActor(fromCallback(({ receive }) => receive((e) => parentEvents.push(e)))).start();
    const actor = createActor(
      countdownMachine.provide({
        actors: { ticker: fromCallback(({ sendBack }) => void ticks.push(sendBack)) },
      }),
      { parent } as never,
    ).start();
    actor.send({ type: 'START', secondsRemaining: 10 });
    ticks[0]!({ type: 'TICK', elapsedMs: 1000 });
    expect(viewCountdown(actor.getSnapshot()).secondsRemaining).toBe(9);
    ticks[0]!({ type: 'TICK', elapsedMs: 6500 }); // a background tab woke up late
    expect(viewCountdown(actor.getSnapshot()).secondsRemaining).toBe(3);
    ticks[0]!({ type: 'TICK', elapsedMs: 60_000 });
    expect(viewCountdown(actor.getSnapshot())).toEqual({ running: false, expired: true, secondsRemaining: 0 });
    expect(parentEvents).toEqual([{ type: 'COUNTDOWN_EXPIRED' }]);
  });

  it('takes the server’s figure on SYNC and stops for good on STOP', () => {
    const actor = createActor(countdownMachine.provide({ actors: { ticker: fromCallback(() => {}) } })).start();
    actor.send({ type: 'START', secondsRemaining: 100 });
    actor.send({ type: 'SYNC', secondsRemaining: 42 });
    expect(viewCountdown(actor.getSnapshot()).secondsRemaining).toBe(42);
    actor.send({ type: 'STOP' });
    actor.send({ type: 'TICK', elapsedMs: 1000 });
    expect(viewCountdown(actor.getSnapshot())).toEqual({ running: false, expired: false, secondsRemaining: 42 });
  });
});
