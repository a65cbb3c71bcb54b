import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { TruelayerStatus } from '../../contract';
import { walk, type Expectation, type OracleQuestion, type WalkEvent } from '../testing/walk';
import { bankTransferSenders, viewBankTransfer, type BankTransferView } from './bankTransfer.connect';
import { bankTransferMachine } from './bankTransfer.machine';
import { BANK_TRANSFER_MESSAGES } from '../../contract/messages/bankTransfer';

/** Spec 001 §8 and §4, word for word. */
const CANCELLED = 'You cancelled the payment in the bank portal.';
const UNABLE = 'Unable to get Truelayer status. Please try again later';
const EXPIRED =
  'Your payment was unsuccessful and the checkout time expired. If the tickets are still available, you can try to reserve them again';
const AFTER_3 = 'Waiting for a response from your bank';
const AFTER_6 = 'Awaiting confirmation of payment';
const AFTER_9 = "It's taking longer than usual for confirmation of your payment.";
/* Our own words where the spec has none (contract/messages/bankTransfer.ts). */
const FIRST_WAIT = 'Checking with your bank';
const NOT_CONFIRMED =
  'Your payment is not confirmed yet. If your bank confirms it, your tickets will be delivered to your ticket wallet and sent to you by e-mail.';
const BANK_FAILED = 'Your bank did not complete the payment.';
const RECEIVED = 'Payment received';

/** Spec 001 §9. */
const FIRST_CHECK_MS = 2000;
const POLL_MS = 1500;
const GIVE_UP = 60;

/** The wait message the spec gives for a number of retries. */
function expectedWait(retries: number): string {
  return retries >= 9 ? AFTER_9 : retries >= 6 ? AFTER_6 : retries >= 3 ? AFTER_3 : FIRST_WAIT;
}

const status = (over: Partial<TruelayerStatus>): TruelayerStatus => ({
  checkout_expires_in: 300,
  payment_completed: false,
  reference: 'HF-7Q2K9',
  total: 1500,
  currency: 'GBP',
  truelayer_status_error: null,
  status: 'processing',
  ...over,
});

const PROCESSING = status({});
const COMPLETED = status({ status: 'completed', payment_completed: true });
const REFUSED = status({ status: 'error', truelayer_status_error: 'The bank refused the payment.' });
const REFUSED_NO_TEXT = status({ status: 'error', truelayer_status_error: null });
const EXPIRED_ERROR = status({ status: 'error', truelayer_status_error: 'Gone', checkout_expires_in: 0 });

type Q = OracleQuestion<BankTransferView>;

const quiet = { succeeded: null, notYetConfirmed: null, canContinue: false, canRetry: false };

/** Retries so far in this path: status replies that said processing. */
function retriesOf(q: Q): number {
  return q.earlier.filter(
    (s) =>
      s.event.type === 'xstate.done.actor.getTruelayerStatus' &&
      (s.event.output as TruelayerStatus).status === 'processing',
  ).length;
}

function failureView(problem: string, canRetry = false): Expectation<BankTransferView> {
  return {
    view: { waiting: false, waitMessage: null, problem, ...quiet, canRetry, canSwitchMethod: true },
    running: [],
  };
}

function oracle(q: Q): Expectation<BankTransferView> | undefined {
  const { event, view, unchanged } = q;
  const retries = retriesOf(q);
  const checking: Expectation<BankTransferView> = {
    view: { waiting: true, waitMessage: expectedWait(retries), problem: null, ...quiet, canSwitchMethod: retries >= 9 },
    running: ['getTruelayerStatus'],
    started: { getTruelayerStatus: [undefined] },
  };
  switch (event.type) {
    case 'xstate.after.firstCheck.bankTransfer.starting':
      return {
        view: { waiting: true, waitMessage: FIRST_WAIT, problem: null },
        running: ['readReturnedFrom'],
        started: { readReturnedFrom: [undefined] },
      };
    case 'xstate.done.actor.readReturnedFrom':
      // A returned-from flag of 0: cancelled at the bank; otherwise the status is read at once.
      return event.output === 0 ? failureView(CANCELLED) : checking;
    case 'xstate.error.actor.readReturnedFrom':
    case 'xstate.error.actor.getTruelayerStatus':
      return failureView(UNABLE, true);
    case 'xstate.done.actor.getTruelayerStatus': {
      const s = event.output as TruelayerStatus;
      if (s.payment_completed) {
        return {
          view: {
            waiting: false,
            waitMessage: null,
            problem: null,
            succeeded: { title: RECEIVED, reference: 'HF-7Q2K9', amount: '£15.00' },
            canContinue: true,
            canSwitchMethod: false,
          },
          running: [],
        };
      }
      if (s.status === 'error' && s.checkout_expires_in <= 0)
        return { view: {}, running: [], output: { kind: 'holdLost', message: EXPIRED } };
      if (s.status === 'error') return failureView(s.truelayer_status_error ?? BANK_FAILED);
      const now = retries + 1;
      if (now >= GIVE_UP) {
        return {
          view: {
            waiting: false,
            waitMessage: null,
            problem: null,
            notYetConfirmed: NOT_CONFIRMED,
            canContinue: false,
            canSwitchMethod: true,
          },
          running: [],
        };
      }
      return {
        view: { waiting: true, waitMessage: expectedWait(now), problem: null, ...quiet, canSwitchMethod: now >= 9 },
        running: [],
      };
    }
    case 'xstate.after.pollInterval.bankTransfer.polling.waiting':
      return checking;
    case 'CONTINUE_CLICKED':
      return view.succeeded ? { view: {}, running: [], output: { kind: 'paid' } } : unchanged();
    case 'SWITCH_METHOD_CLICKED': {
      // Offered on every failure view, after 60, and while waiting from 9 retries on.
      const offered = view.problem !== null || view.notYetConfirmed !== null || (view.waiting && retries >= 9);
      return offered ? { view: {}, running: [], output: { kind: 'changeMethod' } } : unchanged();
    }
    case 'RETRY_CLICKED':
      return view.problem === UNABLE ? { ...checking, view: { ...checking.view, problem: null } } : unchanged();
  }
  return undefined;
}

const EVENTS: Record<string, WalkEvent[]> = {
  CONTINUE_CLICKED: [{ type: 'CONTINUE_CLICKED' }],
  SWITCH_METHOD_CLICKED: [{ type: 'SWITCH_METHOD_CLICKED' }],
  RETRY_CLICKED: [{ type: 'RETRY_CLICKED' }],
  'xstate.done.actor.readReturnedFrom': [
    { type: 'xstate.done.actor.readReturnedFrom', output: 1 },
    { type: 'xstate.done.actor.readReturnedFrom', output: 0 },
  ],
  'xstate.error.actor.readReturnedFrom': [{ type: 'xstate.error.actor.readReturnedFrom', error: new Error('503') }],
  'xstate.done.actor.getTruelayerStatus': [
    { type: 'xstate.done.actor.getTruelayerStatus', output: PROCESSING },
    { type: 'xstate.done.actor.getTruelayerStatus', output: COMPLETED },
    { type: 'xstate.done.actor.getTruelayerStatus', output: REFUSED },
    { type: 'xstate.done.actor.getTruelayerStatus', output: REFUSED_NO_TEXT },
    { type: 'xstate.done.actor.getTruelayerStatus', output: EXPIRED_ERROR },
  ],
  'xstate.error.actor.getTruelayerStatus': [{ type: 'xstate.error.actor.getTruelayerStatus', error: new Error('502') }],
};

describe('bank transfer machine', () => {
  it('is walked at 100 %, each step checked against spec 001 §4, §8 and §9', async () => {
    const result = await walk<BankTransferView>({
      name: 'bankTransfer',
      machine: bankTransferMachine,
      fakes: (kit) => ({ actors: { readReturnedFrom: kit.controlled(), getTruelayerStatus: kit.controlled() } }),
      askIgnored: true,
      events: EVENTS,
      paths: {
        unreachable: [
          {
            why:
              'the polling gives up at the 60th processing reply and offers another method from the 9th; every reply before goes round ' +
              'polling.checking → polling.waiting → polling.checking, which a simple path takes at most once',
            matches: ({ start, moves }) =>
              moves.some(
                (move, i) =>
                  move.to === '"gaveUp"' ||
                  (move.type === 'SWITCH_METHOD_CLICKED' && (i ? moves[i - 1]!.to : start).includes('"polling"')),
              ),
          },
        ],
      },
      view: (snapshot) => viewBankTransfer(snapshot as never),
      // Nothing is asked during the first 2 s.
      initial: () => ({
        view: { waiting: true, waitMessage: FIRST_WAIT, problem: null, ...quiet, canSwitchMethod: false },
        running: [],
      }),
      oracle,
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  }, 120_000);

  /** A real actor on a simulated clock: 2 s to the first check, then 1.5 s between polls, the messages at 3, 6 and 9, the stop at 60. */
  async function run(replies: (n: number) => TruelayerStatus, returnedFrom: 0 | 1 | null = 1) {
    const clock = new SimulatedClock();
    const calls: number[] = [];
    let n = 0;
    const actor = createActor(
      bankTransferMachine.provide({
        actors: {
          readReturnedFrom: fromPromise(async () => returnedFrom),
          getTruelayerStatus: fromPromise(async () => {
            calls.push(n);
            return replies(++n);
          }),
        },
      }),
      { clock },
    ).start();
    const settle = async () => {
      for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    return { clock, calls, actor, settle, view: () => viewBankTransfer(actor.getSnapshot()) };
  }

  it('checks first after exactly 2 s and then every 1.5 s, the messages changing after 3, 6 and 9 retries', async () => {
    const { clock, calls, settle, view } = await run(() => PROCESSING);
    clock.increment(FIRST_CHECK_MS - 1);
    await settle();
    expect(calls).toEqual([]);
    clock.increment(1);
    await settle();
    expect(calls).toHaveLength(1);
    const seen: string[] = [view().waitMessage!];
    for (let i = 1; i < 12; i++) {
      clock.increment(POLL_MS - 1);
      await settle();
      expect(calls).toHaveLength(i);
      clock.increment(1);
      await settle();
      expect(calls).toHaveLength(i + 1);
      seen.push(view().waitMessage!);
    }
    // After reply n the buyer sees the message of n retries.
    expect(seen.slice(0, 3)).toEqual([FIRST_WAIT, FIRST_WAIT, AFTER_3]);
    expect(seen.slice(3, 6)).toEqual([AFTER_3, AFTER_3, AFTER_6]);
    expect(seen.slice(8, 12)).toEqual([AFTER_9, AFTER_9, AFTER_9, AFTER_9]);
    expect(view().canSwitchMethod).toBe(true);
    // The button that is now offered, in spec 001 §2's words.
    expect(BANK_TRANSFER_MESSAGES.tryDifferentMethod).toBe('Try a different payment method');
  });

  it('stops after 60 retries with the not-yet-confirmed message, and asks no more', async () => {
    const { clock, calls, settle, view } = await run(() => PROCESSING);
    clock.increment(FIRST_CHECK_MS);
    await settle();
    for (let i = 1; i < GIVE_UP + 5; i++) {
      clock.increment(POLL_MS);
      await settle();
    }
    expect(calls).toHaveLength(GIVE_UP);
    expect(view()).toMatchObject({ waiting: false, notYetConfirmed: NOT_CONFIRMED, canSwitchMethod: true });
  });

  it('polls at the interval the server asks for, never touching the first 2 s', async () => {
    const { clock, calls, settle } = await run(() => ({ ...PROCESSING, poll_interval_ms: 400 }));
    clock.increment(FIRST_CHECK_MS);
    await settle();
    expect(calls).toHaveLength(1);
    clock.increment(399);
    await settle();
    expect(calls).toHaveLength(1);
    clock.increment(1);
    await settle();
    expect(calls).toHaveLength(2);
  });

  it('a returned-from flag of 0 says the buyer cancelled, without asking for the status', async () => {
    const { clock, calls, settle, view } = await run(() => PROCESSING, 0);
    clock.increment(FIRST_CHECK_MS);
    await settle();
    expect(calls).toEqual([]);
    expect(view()).toMatchObject({ problem: CANCELLED, canSwitchMethod: true, waiting: false });
  });

  it('turns the screen’s buttons into its events', () => {
    const sent: unknown[] = [];
    const s = bankTransferSenders((event) => sent.push(event));
    s.continue();
    s.switchMethod();
    s.retry();
    expect(sent).toEqual([{ type: 'CONTINUE_CLICKED' }, { type: 'SWITCH_METHOD_CLICKED' }, { type: 'RETRY_CLICKED' }]);
  });
});
