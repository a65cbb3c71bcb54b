import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, type EventObject } from 'xstate';
import { walk, type Expectation, type OracleQuestion } from '../testing/walk';
import { countdownMachine } from './countdown.machine';
import { connectCountdown, viewCountdown, type CountdownView } from './countdown.connect';

const REFUSAL = 'No more time can be added to this reservation.';
/** What the buyer hears, written out here so a changed sentence fails the walk. */
const TIME_UP_ANNOUNCEMENT = 'Your reservation time is up.';
const LAST_MINUTE_ANNOUNCEMENT = 'Less than a minute left to complete your order.';
const MORE_TIME_ANNOUNCEMENT = 'Your tickets are held for less than a minute. Choose More time to keep them longer.';
/** Shown when the call for more time failed without a reason of the server's. */
const MORE_TIME_FAILED = 'More time could not be added. Please try again later';
/** Said while a started payment keeps the hold. */
const PAYMENT_IN_PROGRESS = 'Payment in progress: your tickets are held until the payment finishes.';

/** The sentence for the time left while the clock runs: whole minutes, or the last minute. */
function spoken(seconds: number): string {
  if (seconds < 60) return LAST_MINUTE_ANNOUNCEMENT;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'} left to complete your order.`;
}

/**
 * The oracle, from spec 000 §4 (a one-second countdown of seconds_remaining that never shows less
 * than 0 and tells the flow at zero) and WCAG 2.2.1 as this product meets it: 'More time' is
 * offered from a minute before the end (half the hold when the hold is shorter than two minutes),
 * the server's answer sets the new time, its refusal is shown. It keeps its own arithmetic of the
 * seconds left and never looks at the chart's states.
 */
function countdownOracle({
  event,
  view,
  earlier,
  unchanged,
}: OracleQuestion<CountdownView>): Expectation<CountdownView> | undefined {
  const events = [...earlier.map((step) => step.event), event];
  const starts = events.filter((e) => e.type === 'START');
  const holdSeconds = Number(starts.at(-1)?.secondsRemaining ?? 0);
  const offerFrom = Math.min(60, holdSeconds / 2);
  const ticking = view.running;
  const refused = view.refusal !== null;
  /** Stopped for good: STOP came after the last START (payment complete, sale destroyed). */
  const stopped = events.findLastIndex((e) => e.type === 'STOP') > events.findLastIndex((e) => e.type === 'START');

  /** The clock shows `seconds`; whether more time is offered follows from it, unless a call or refusal stands. */
  const counting = (seconds: number, extras: Partial<Expectation<CountdownView>> = {}): Expectation<CountdownView> => {
    const offering = !view.extending && !refused && seconds <= offerFrom;
    return {
      view: {
        running: true,
        expired: false,
        secondsRemaining: seconds,
        offeringMoreTime: offering,
        extending: view.extending,
        refusal: view.refusal,
        announcement: offering || view.extending ? MORE_TIME_ANNOUNCEMENT : (view.refusal ?? spoken(seconds)),
      },
      running: view.extending ? ['extendHold', 'ticker'] : ['ticker'],
      ...extras,
    };
  };
  /** A payment has started: the time it keeps the hold counts down, and the words say so. */
  const paying = (seconds: number, extras: Partial<Expectation<CountdownView>> = {}): Expectation<CountdownView> => ({
    view: {
      running: false,
      expired: false,
      paymentInProgress: true,
      secondsRemaining: seconds,
      offeringMoreTime: false,
      extending: false,
      refusal: null,
      announcement: PAYMENT_IN_PROGRESS,
    },
    running: ['ticker'],
    ...extras,
  });
  const expired: Expectation<CountdownView> = {
    view: {
      running: false,
      expired: true,
      paymentInProgress: false,
      secondsRemaining: 0,
      offeringMoreTime: false,
      announcement: TIME_UP_ANNOUNCEMENT,
    },
    running: [],
    sent: { parent: [{ type: 'COUNTDOWN_EXPIRED' }] },
  };
  // A hold resumed at its very deadline (0 left) is within its own threshold: more time is offered at once.
  const fresh = (seconds: number): Expectation<CountdownView> => ({
    view: {
      running: true,
      expired: false,
      paymentInProgress: false,
      secondsRemaining: seconds,
      offeringMoreTime: seconds <= offerFrom,
      extending: false,
      refusal: null,
      announcement: seconds <= offerFrom ? MORE_TIME_ANNOUNCEMENT : spoken(seconds),
    },
    running: ['ticker'],
    // A new hold restarts the one-second ticker, so its first tick counts from the new deadline.
    sent: { ticker: [{ intervalMs: 1000 }] },
  });

  switch (event.type) {
    case 'START': {
      const payingFor = Number(event.paymentSecondsRemaining ?? 0);
      return payingFor > 0
        ? paying(payingFor, { sent: { ticker: [{ intervalMs: 1000 }] } })
        : fresh(Number(event.secondsRemaining));
    }
    case 'SYNC': {
      // The server's figure is the hold's own deadline, which a payment in progress outlasts.
      if (view.paymentInProgress) return unchanged();
      const seconds = Number(event.secondsRemaining);
      // Before the hold starts the server's figure is kept; once stopped or expired it no longer matters.
      if (!ticking)
        return stopped || view.expired
          ? unchanged()
          : {
              view: {
                running: false,
                expired: false,
                secondsRemaining: seconds,
                offeringMoreTime: false,
                extending: false,
                refusal: null,
              },
              running: [],
            };
      return seconds <= 0 ? expired : counting(seconds);
    }
    case 'TICK': {
      if (view.paymentInProgress) {
        const left = Math.max(0, view.secondsRemaining - Number(event.elapsedMs) / 1000);
        return left <= 0 ? expired : paying(left);
      }
      if (!ticking) return unchanged();
      const seconds = Math.max(0, view.secondsRemaining - Number(event.elapsedMs) / 1000);
      return seconds <= 0 ? expired : counting(seconds);
    }
    case 'STOP':
      if (view.paymentInProgress) {
        return {
          view: {
            running: false,
            expired: false,
            paymentInProgress: false,
            secondsRemaining: view.secondsRemaining,
            announcement: spoken(view.secondsRemaining),
          },
          running: [],
        };
      }
      if (!ticking) return unchanged();
      return {
        view: { running: false, expired: false, secondsRemaining: view.secondsRemaining, offeringMoreTime: false },
        running: [],
      };
    case 'MORE_TIME_CLICKED':
      if (!view.offeringMoreTime) return unchanged();
      return {
        view: {
          offeringMoreTime: false,
          extending: true,
          announcement: MORE_TIME_ANNOUNCEMENT,
          secondsRemaining: view.secondsRemaining,
        },
        running: ['extendHold', 'ticker'],
        started: { extendHold: [undefined] },
      };
    case 'xstate.done.actor.extendHold': {
      const seconds = (event.output as { seconds_remaining: number }).seconds_remaining;
      const offering = seconds <= offerFrom;
      return {
        view: { extending: false, offeringMoreTime: offering, secondsRemaining: seconds, refusal: null },
        running: ['ticker'],
      };
    }
    case 'xstate.error.actor.extendHold': {
      // The server's reason when it gave one, else our own sentence.
      const error = event.error;
      const refusal = error instanceof Error && error.message ? error.message : MORE_TIME_FAILED;
      return {
        view: {
          extending: false,
          offeringMoreTime: false,
          refusal,
          announcement: refusal,
          secondsRemaining: view.secondsRemaining,
        },
        running: ['ticker'],
      };
    }
  }
  return undefined;
}

describe('countdown machine', () => {
  it('is walked at 100 % of its states and transitions, each step checked against the oracle', async () => {
    const result = await walk<CountdownView>({
      name: 'countdown',
      machine: countdownMachine,
      fakes: (kit) => ({
        actors: {
          ticker: fromCallback(({ input }) => void kit.log.push({ to: 'ticker', event: input })),
          extendHold: kit.controlled(),
        },
      }),
      parentActions: ['reportExpired'],
      serializeState: (s) =>
        JSON.stringify([s.value, s.context.remainingMs, s.context.holdMs, s.context.refusal !== null]),
      simplePathsOver: [(s) => (s.value === 'expired' || s.value === 'stopped' ? 'ended' : JSON.stringify(s.value))],
      paths: {
        merge:
          'expired and stopped as one, ended: both only wait for a new START, which leads from either to the same states ' +
          '(the expiry is reported on the way into expired, not after)',
        unreachable: [
          {
            why:
              'a tick only takes time away, and more time stops being offered only when the time left rises above the offer ' +
              '(the server’s figure, an extension)',
            matches: ({ moves }) =>
              moves.some(
                (move, i) =>
                  i > 0 &&
                  move.type === 'TICK' &&
                  moves[i - 1]!.to === '{"running":"offering"}' &&
                  move.to === '{"running":"counting"}',
              ),
          },
        ],
      },
      events: {
        START: [
          { type: 'START', secondsRemaining: 100 },
          // Back on the checkout after the hold's deadline, with a payment started within its grace.
          { type: 'START', secondsRemaining: 0, paymentSecondsRemaining: 50 },
          // A checkout resumed at the hold's very deadline, with no payment started.
          { type: 'START', secondsRemaining: 0 },
        ],
        SYNC: [
          { type: 'SYNC', secondsRemaining: 90 },
          { type: 'SYNC', secondsRemaining: 30 },
          { type: 'SYNC', secondsRemaining: 0 },
        ],
        TICK: [
          { type: 'TICK', elapsedMs: 30_000 },
          // A throttled background tab waking long after: the clock jumps past the whole offer to zero.
          { type: 'TICK', elapsedMs: 200_000 },
        ],
        'xstate.done.actor.extendHold': [
          { type: 'xstate.done.actor.extendHold', output: { seconds_remaining: 130, extensions_left: 1 } },
        ],
        'xstate.error.actor.extendHold': [
          { type: 'xstate.error.actor.extendHold', error: new Error(REFUSAL) },
          { type: 'xstate.error.actor.extendHold', error: new Error('') },
          { type: 'xstate.error.actor.extendHold', error: 'offline' },
        ],
      },
      view: (snapshot) => viewCountdown(snapshot as never),
      initial: () => ({
        view: {
          running: false,
          expired: false,
          paymentInProgress: false,
          secondsRemaining: 0,
          offeringMoreTime: false,
        },
        running: [],
      }),
      oracle: countdownOracle,
      askIgnored: true,
      extraPaths: [
        // More than two minutes left: the minutes are counted in the plural.
        {
          events: [
            { type: 'START', secondsRemaining: 100 },
            { type: 'SYNC', secondsRemaining: 150 },
          ],
        },
        // Under a minute left of a short hold, before more time is offered at half of it.
        {
          events: [
            { type: 'START', secondsRemaining: 100 },
            { type: 'SYNC', secondsRemaining: 55 },
          ],
        },
        // A new hold after a refusal: more time is offered again when its end comes near.
        {
          events: [
            { type: 'START', secondsRemaining: 100 },
            { type: 'TICK', elapsedMs: 30_000 },
            { type: 'TICK', elapsedMs: 30_000 },
            { type: 'MORE_TIME_CLICKED' },
            { type: 'xstate.error.actor.extendHold', error: new Error(REFUSAL) },
            { type: 'START', secondsRemaining: 100 },
            { type: 'TICK', elapsedMs: 30_000 },
            { type: 'TICK', elapsedMs: 30_000 },
          ],
        },
      ],
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });

  it('shows and says nothing before the reservation starts it', () => {
    expect(viewCountdown(undefined)).toEqual({
      running: false,
      expired: false,
      paymentInProgress: false,
      secondsRemaining: 0,
      offeringMoreTime: false,
      extending: false,
      refusal: null,
      announcement: '',
    });
  });

  it('sends MORE_TIME_CLICKED only while more time is offered, and only to a countdown that exists', () => {
    const actor = createActor(countdownMachine.provide({ actors: { ticker: fromCallback(() => {}) } })).start();
    const sent: EventObject[] = [];
    actor.send({ type: 'START', secondsRemaining: 600 });
    connectCountdown(actor.getSnapshot(), (e) => sent.push(e)).moreTime();
    expect(sent).toEqual([]);
    actor.send({ type: 'TICK', elapsedMs: 550_000 });
    connectCountdown(actor.getSnapshot(), (e) => sent.push(e)).moreTime();
    expect(sent).toEqual([{ type: 'MORE_TIME_CLICKED' }]);
    expect(() => connectCountdown(actor.getSnapshot(), undefined).moreTime()).not.toThrow();
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
    expect(viewCountdown(actor.getSnapshot())).toMatchObject({ running: false, expired: true, secondsRemaining: 0 });
    expect(parentEvents).toEqual([{ type: 'COUNTDOWN_EXPIRED' }]);
  });

  it('ticks once a second of real time: the interval the app’s ticker is started with', () => {
    const inputs: unknown[] = [];
    const actor = createActor(
      countdownMachine.provide({ actors: { ticker: fromCallback(({ input }) => void inputs.push(input)) } }),
    ).start();
    actor.send({ type: 'START', secondsRemaining: 600 });
    expect(inputs).toEqual([{ intervalMs: 1000 }]);
  });

  it('with a payment in progress, says so and outlasts the hold’s own deadline until the grace runs out', () => {
    const ticks: Array<(e: { type: 'TICK'; elapsedMs: number }) => void> = [];
    const parentEvents: EventObject[] = [];
    const parent = createActor(fromCallback(({ receive }) => receive((e) => parentEvents.push(e)))).start();
    const actor = createActor(
      countdownMachine.provide({ actors: { ticker: fromCallback(({ sendBack }) => void ticks.push(sendBack)) } }),
      { parent } as never,
    ).start();
    // Back on the checkout after the hold's own deadline, ten minutes of grace left.
    actor.send({ type: 'START', secondsRemaining: 0, paymentSecondsRemaining: 600 });
    expect(viewCountdown(actor.getSnapshot())).toMatchObject({
      paymentInProgress: true,
      running: false,
      expired: false,
      announcement: PAYMENT_IN_PROGRESS,
    });
    actor.send({ type: 'SYNC', secondsRemaining: 0 });
    ticks.at(-1)!({ type: 'TICK', elapsedMs: 599_000 });
    expect(viewCountdown(actor.getSnapshot())).toMatchObject({ paymentInProgress: true, expired: false });
    expect(parentEvents).toEqual([]);
    ticks.at(-1)!({ type: 'TICK', elapsedMs: 1000 });
    expect(viewCountdown(actor.getSnapshot())).toMatchObject({
      paymentInProgress: false,
      expired: true,
      announcement: TIME_UP_ANNOUNCEMENT,
    });
    expect(parentEvents).toEqual([{ type: 'COUNTDOWN_EXPIRED' }]);
  });

  it('takes the server’s figure on SYNC and stops for good on STOP', () => {
    const actor = createActor(countdownMachine.provide({ actors: { ticker: fromCallback(() => {}) } })).start();
    actor.send({ type: 'START', secondsRemaining: 100 });
    actor.send({ type: 'SYNC', secondsRemaining: 42 });
    expect(viewCountdown(actor.getSnapshot()).secondsRemaining).toBe(42);
    actor.send({ type: 'STOP' });
    actor.send({ type: 'TICK', elapsedMs: 1000 });
    expect(viewCountdown(actor.getSnapshot())).toMatchObject({ running: false, expired: false, secondsRemaining: 42 });
  });
});

describe('more time on the clock (WCAG 2.2.1)', () => {
  /** A ten-minute hold ticking second by second, with a server that gives more time twice. */
  function tenMinuteHold() {
    const ticks: Array<(e: { type: 'TICK'; elapsedMs: number }) => void> = [];
    let granted = 0;
    let remaining = () => 0;
    const parent = createActor(fromCallback(() => {})).start();
    const actor = createActor(
      countdownMachine.provide({
        actors: {
          ticker: fromCallback(({ sendBack }) => void ticks.push(sendBack)),
          extendHold: fromPromise(async () => {
            if (granted === 2) throw new Error(REFUSAL);
            granted++;
            return { seconds_remaining: remaining() + 600, extensions_left: 2 - granted };
          }),
        },
      }),
      { parent } as never,
    ).start();
    remaining = () => viewCountdown(actor.getSnapshot()).secondsRemaining;
    actor.send({ type: 'START', secondsRemaining: 600 });
    const tick = (n: number) => {
      for (let i = 0; i < n; i++) ticks.at(-1)!({ type: 'TICK', elapsedMs: 1000 });
    };
    const countdown = () => connectCountdown(actor.getSnapshot(), (e) => actor.send(e));
    const settle = () => new Promise((r) => setTimeout(r, 0));
    return { actor, tick, countdown, settle };
  }

  it('offers more time from 60 seconds before the end, and says so to a screen reader once, not every second', () => {
    const { tick, countdown } = tenMinuteHold();
    tick(539);
    expect(countdown()).toMatchObject({ secondsRemaining: 61, offeringMoreTime: false });
    const heard: string[] = [countdown().announcement];
    tick(1);
    expect(countdown()).toMatchObject({
      secondsRemaining: 60,
      offeringMoreTime: true,
      announcement: MORE_TIME_ANNOUNCEMENT,
    });
    for (let i = 0; i < 60; i++) {
      heard.push(countdown().announcement);
      tick(1);
    }
    // What a live region would say: each distinct sentence in turn.
    const spoken = heard.filter((text, i) => i === 0 || heard[i - 1] !== text);
    expect(spoken).toEqual(['1 minute left to complete your order.', MORE_TIME_ANNOUNCEMENT]);
    expect(countdown()).toMatchObject({ expired: true, announcement: TIME_UP_ANNOUNCEMENT });
  });

  it('gives the server’s new time twice, then shows its refusal', async () => {
    const { tick, countdown, settle } = tenMinuteHold();
    tick(560);
    countdown().moreTime();
    expect(countdown()).toMatchObject({ extending: true, offeringMoreTime: false });
    await settle();
    expect(countdown()).toMatchObject({
      secondsRemaining: 640,
      offeringMoreTime: false,
      extending: false,
      refusal: null,
    });
    tick(600);
    countdown().moreTime();
    await settle();
    expect(countdown()).toMatchObject({ secondsRemaining: 640, offeringMoreTime: false });
    tick(600);
    countdown().moreTime();
    await settle();
    expect(countdown()).toMatchObject({
      secondsRemaining: 40,
      offeringMoreTime: false,
      refusal: REFUSAL,
      announcement: REFUSAL,
    });
    countdown().moreTime(); // no button any more: nothing is sent
    await settle();
    expect(countdown()).toMatchObject({ extending: false, refusal: REFUSAL });
  });

  it('offers more time at half a hold shorter than two minutes', () => {
    const actor = createActor(countdownMachine.provide({ actors: { ticker: fromCallback(() => {}) } })).start();
    actor.send({ type: 'START', secondsRemaining: 8 });
    actor.send({ type: 'TICK', elapsedMs: 3000 });
    expect(viewCountdown(actor.getSnapshot()).offeringMoreTime).toBe(false);
    actor.send({ type: 'TICK', elapsedMs: 1000 });
    expect(viewCountdown(actor.getSnapshot()).offeringMoreTime).toBe(true);
  });
});
