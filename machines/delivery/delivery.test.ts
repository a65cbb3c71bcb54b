import { describe, expect, it } from 'vitest';
import { walk, type Expectation, type OracleQuestion } from '../testing/walk';
import { deliverySenders, viewDelivery, type DeliveryView } from './delivery.connect';
import { deliveryMachine } from './delivery.machine';
import { ORDER_COMPLETED_MESSAGES } from '../../contract/messages/delivery';

/** Spec 001 §8, the delivery texts, and §4 Delivery's error code. */
const UNABLE_BITTICKET = 'Unable to deliver to BitTicket. Please try again later';
const UNABLE_WALLET = 'Unable to deliver to Wallet. Please try again later';
const DELIVERY_FAILED = 'Delivery failed. Please contact support';
const CODE = 2961;

/** Spec 001 §9: the screen starts after 1 s; the step advances 3 s after completion. */
const START_MS = 1000;
const ADVANCE_MS = 3000;

const completed = (delivery_completed: boolean) => ({ delivery_completed });

type Q = OracleQuestion<DeliveryView>;

/** The screen while a stage is in flight, with nothing wrong. */
const inFlight = (tickets: DeliveryView['tickets'], wallet: DeliveryView['wallet']) => ({
  tickets,
  wallet,
  problem: null,
  errorCode: null,
  canRetry: false,
  complete: false,
});

function deliveryOracle(signedIn: boolean) {
  return (q: Q): Expectation<DeliveryView> | undefined => {
    const { event, view, unchanged } = q;
    const startTickets: Expectation<DeliveryView> = {
      view: inFlight('delivering', 'waiting'),
      running: ['deliverToBitticket'],
      started: { deliverToBitticket: [undefined] },
    };
    const startWallet: Expectation<DeliveryView> = {
      view: inFlight('delivered', 'delivering'),
      running: ['deliverToWallet'],
      started: { deliverToWallet: [undefined] },
    };
    const stopped = (
      tickets: DeliveryView['tickets'],
      wallet: DeliveryView['wallet'],
      problem: string,
      retry: boolean,
    ): Expectation<DeliveryView> => ({
      view: { tickets, wallet, problem, errorCode: retry ? null : CODE, canRetry: retry, complete: false },
      running: [],
    });
    switch (event.type) {
      case 'xstate.after.deliveryStartDelay.delivery.starting':
        // 1 s after entry, and only then, the tickets go into the wallet.
        return view.tickets === 'waiting' && view.problem === null ? startTickets : undefined;
      case 'xstate.done.actor.deliverToBitticket':
        if ((event.output as { delivery_completed: boolean }).delivery_completed) return startWallet;
        return stopped('failed', 'waiting', DELIVERY_FAILED, false);
      case 'xstate.error.actor.deliverToBitticket':
        return stopped('failed', 'waiting', UNABLE_BITTICKET, true);
      case 'xstate.done.actor.deliverToWallet':
        if ((event.output as { delivery_completed: boolean }).delivery_completed) {
          return {
            view: {
              tickets: 'delivered',
              wallet: 'delivered',
              problem: null,
              errorCode: null,
              canRetry: false,
              complete: true,
            },
            running: [],
          };
        }
        return stopped('delivered', 'failed', DELIVERY_FAILED, false);
      case 'xstate.error.actor.deliverToWallet':
        return stopped('delivered', 'failed', UNABLE_WALLET, true);
      case 'RETRY_CLICKED':
        // Only a failed call is tried again, the stage that failed; 'contact support' is final.
        if (view.canRetry && view.tickets === 'failed') return startTickets;
        if (view.canRetry && view.wallet === 'failed') return startWallet;
        return unchanged();
      case 'xstate.after.deliveryAdvanceDelay.delivery.delivered':
        if (!view.complete) return undefined;
        // 3 s after completion: on at once when signed in, else the user is fetched first.
        if (signedIn) return { view: { complete: true }, running: [], output: undefined };
        return { view: { complete: true }, running: ['fetchUser'], started: { fetchUser: [undefined] } };
      case 'xstate.done.actor.fetchUser':
      case 'xstate.error.actor.fetchUser':
        // The tickets are delivered either way: the step ends.
        return view.complete ? { view: { complete: true }, running: [], output: undefined } : undefined;
    }
    return undefined;
  };
}

describe('delivery machine', () => {
  it('is walked at 100 %, signed in and not, each step checked against spec 001 §4, §8 and §9', async () => {
    const result = await walk<DeliveryView>({
      name: 'delivery',
      machine: deliveryMachine,
      fakes: (kit) => ({
        actors: {
          deliverToBitticket: kit.controlled(),
          deliverToWallet: kit.controlled(),
          fetchUser: kit.controlled(),
        },
      }),
      variants: [
        { name: 'signed in', provide: { guards: { signedIn: () => true } } },
        { name: 'not signed in', provide: { guards: { signedIn: () => false } } },
      ],
      askIgnored: true,
      events: {
        RETRY_CLICKED: [{ type: 'RETRY_CLICKED' }],
        'xstate.done.actor.deliverToBitticket': [
          { type: 'xstate.done.actor.deliverToBitticket', output: completed(true) },
          { type: 'xstate.done.actor.deliverToBitticket', output: completed(false) },
        ],
        'xstate.error.actor.deliverToBitticket': [
          { type: 'xstate.error.actor.deliverToBitticket', error: new Error('503') },
        ],
        'xstate.done.actor.deliverToWallet': [
          { type: 'xstate.done.actor.deliverToWallet', output: completed(true) },
          { type: 'xstate.done.actor.deliverToWallet', output: completed(false) },
        ],
        'xstate.error.actor.deliverToWallet': [{ type: 'xstate.error.actor.deliverToWallet', error: new Error('502') }],
        'xstate.done.actor.fetchUser': [{ type: 'xstate.done.actor.fetchUser', output: null }],
        'xstate.error.actor.fetchUser': [{ type: 'xstate.error.actor.fetchUser', error: new Error('offline') }],
      },
      view: (snapshot) => viewDelivery(snapshot as never),
      // Nothing is called during the first second: the two stages wait.
      initial: () => ({ view: inFlight('waiting', 'waiting'), running: [] }),
      oracle: (q, variant) => deliveryOracle(variant === 'signed in')(q),
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });

  it('waits exactly 1 s before the first call and 3 s after completion', async () => {
    const { createActor, SimulatedClock, fromPromise } = await import('xstate');
    const clock = new SimulatedClock();
    const calls: string[] = [];
    const reply = (name: string) =>
      fromPromise<{ delivery_completed: boolean }, void>(async () => (calls.push(name), { delivery_completed: true }));
    const actor = createActor(
      deliveryMachine.provide({
        actors: {
          deliverToBitticket: reply('bitticket'),
          deliverToWallet: reply('wallet'),
          fetchUser: fromPromise<unknown, void>(async () => null),
        },
        guards: { signedIn: () => true },
      }),
      { clock },
    ).start();
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    clock.increment(START_MS - 1);
    await settle();
    expect(calls).toEqual([]);
    clock.increment(1);
    await settle();
    await settle();
    expect(calls).toEqual(['bitticket', 'wallet']);
    expect(viewDelivery(actor.getSnapshot()).complete).toBe(true);
    clock.increment(ADVANCE_MS - 1);
    expect(actor.getSnapshot().status).toBe('active');
    clock.increment(1);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('turns the Try again button into its event', () => {
    const sent: unknown[] = [];
    deliverySenders((event) => sent.push(event)).retry();
    expect(sent).toEqual([{ type: 'RETRY_CLICKED' }]);
  });

  it('hands the order-completed screen that follows it the words of spec 001 §2 Order completed', () => {
    expect(ORDER_COMPLETED_MESSAGES.reference('HF-7Q2K9')).toBe('Your reference is HF-7Q2K9');
    expect(ORDER_COMPLETED_MESSAGES.complete).toBe('Order complete! Your tickets are on their way.');
    expect(ORDER_COMPLETED_MESSAGES.walletSent('amelia@example.co.uk')).toBe(
      'A copy of your ticket wallet has been sent to amelia@example.co.uk',
    );
  });
});
