import { firstScreenShown } from './firstScreen';
import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { createActor, type AnyActorLogic, type AnyStateNode } from 'xstate';
import { checkoutMachine } from '../../machines/checkout/checkout.machine';
import { makeCheckout } from '../../machines/testing/checkoutFixture';
import { paymentMachine } from '../../machines/payment/payment.machine';
import { countdownMachine } from '../../machines/countdown/countdown.machine';
import { stepCharts } from '../steps/steps';
import { createStepCharts, stepChartNames } from './stepCharts';

/** What an actor of the logic reports once started: a stand-in fails with its reason, a chart runs. */
async function failure(logic: AnyActorLogic): Promise<string | null> {
  const actor = createActor(logic);
  actor.subscribe({ error: () => {} });
  actor.start();
  await new Promise((resolve) => setTimeout(resolve, 0));
  const snapshot = actor.getSnapshot() as { status: string; error?: unknown };
  actor.stop();
  return snapshot.status === 'error' ? String(snapshot.error) : null;
}

/** The children the root chart invokes or spawns, by the names its states use. */
function invokedChildren(node: AnyStateNode, found = new Set<string>()): Set<string> {
  for (const invoke of node.invoke) if (typeof invoke.src === 'string') found.add(invoke.src);
  for (const child of Object.values(node.states)) invokedChildren(child, found);
  return found;
}

/** Read from the entry: the calls, the reservation's preparation and the basket (the step saver and the hold's clock are spawned, not invoked). */
const FROM_THE_ENTRY = ['loadCheckout', 'destroySale', 'prepareReservation', 'basket'];

describe('the step charts', () => {
  it('has a loader for every child step chart the root invokes, and for nothing else', () => {
    const stepChildren = [...invokedChildren(checkoutMachine.root)]
      .filter((src) => !FROM_THE_ENTRY.includes(src))
      .sort();
    expect(stepChildren.length).toBeGreaterThan(0);
    expect([...stepChartNames].sort()).toEqual(stepChildren);
    // And the steps' registry says how to load each of them.
    expect(
      stepCharts()
        .map((c) => c.name)
        .sort(),
    ).toEqual(stepChildren);
  });

  it('installs every step’s chart in the root machine once loaded; before, invoking a step’s chart fails loudly', async () => {
    const charts = createStepCharts({ queryClient: new QueryClient(), navigate: () => {}, userAgent: '' });
    const root = checkoutMachine.provide({});
    charts.installIn(root);
    const payment = () => root.implementations.actors.payment as AnyActorLogic;
    expect(await failure(payment())).toMatch(/The payment chart is provided by the app/);
    await charts.loadAll();
    expect(await failure(payment())).toBeNull();
    const installed = createActor(payment()).start();
    const direct = createActor(paymentMachine).start();
    expect(installed.getSnapshot().value).toEqual(direct.getSnapshot().value);
    expect(installed.getSnapshot().machine.id).toBe(paymentMachine.id);
    installed.stop();
    direct.stop();
  });

  it('installs the hold’s clock with the later steps’ charts, not at the basket', async () => {
    const charts = createStepCharts({ queryClient: new QueryClient(), navigate: () => {}, userAgent: '' });
    const root = checkoutMachine.provide({});
    charts.installIn(root);
    const clock = () => root.implementations.actors.countdown as AnyActorLogic;
    await charts.readyFor(makeCheckout({ state: 'basket' }));
    expect(await failure(clock())).toMatch(/The countdown chart is provided by the app/);
    await charts.readyFor(makeCheckout({ state: 'payment', sale_reference: 'HF-1' }));
    const installed = clock() as typeof countdownMachine;
    expect(installed.id).toBe(countdownMachine.id);
    // With the app's ticker and call for more time, not the chart's stand-ins.
    expect(installed.implementations.actors.ticker).not.toBe(countdownMachine.implementations.actors.ticker);
    expect(installed.implementations.actors.extendHold).not.toBe(countdownMachine.implementations.actors.extendHold);
  });

  it('installs charts loaded before the machine was given to it', async () => {
    const charts = createStepCharts({ queryClient: new QueryClient(), navigate: () => {}, userAgent: '' });
    await charts.loadAll();
    const root = checkoutMachine.provide({});
    charts.installIn(root);
    expect(await failure(root.implementations.actors.account as AnyActorLogic)).toBeNull();
  });

  it('lets the flow on at the basket at once, and waits for the charts anywhere past it', async () => {
    const charts = createStepCharts({ queryClient: new QueryClient(), navigate: () => {}, userAgent: '' });
    const root = checkoutMachine.provide({});
    charts.installIn(root);
    await charts.readyFor(makeCheckout({ state: 'basket' }));
    expect(await failure(root.implementations.actors.account as AnyActorLogic)).toMatch(/provided by the app/);
    await charts.readyFor(makeCheckout({ state: 'login', sale_reference: 'HF-1' }));
    expect(await failure(root.implementations.actors.account as AnyActorLogic)).toBeNull();
  });

  it('at the basket, loads only the next step’s chart (the reservation’s) in an idle moment after the first screen is shown; Reserve loads the rest', async () => {
    const idle: Array<() => void> = [];
    vi.stubGlobal('window', { requestIdleCallback: (run: () => void) => idle.push(run) });
    try {
      const charts = createStepCharts({ queryClient: new QueryClient(), navigate: () => {}, userAgent: '' });
      await charts.readyFor(makeCheckout({ state: 'basket' }));
      expect(charts.loaded()).toEqual([]);
      // Nothing is asked for before the first screen is on the page.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(idle).toHaveLength(0);
      firstScreenShown();
      // (The earlier tests' charts at the basket wait for the same first screen: theirs run here too.)
      await vi.waitFor(() => expect(idle.length).toBeGreaterThan(0));
      await new Promise((resolve) => setTimeout(resolve, 50));
      while (idle.length) idle.shift()!();
      await vi.waitFor(() => expect(charts.loaded()).toEqual(['reservation']), { timeout: 15_000 });
      // Nothing more loads while the buyer stays at the basket.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(idle).toHaveLength(0);
      expect(charts.loaded()).toEqual(['reservation']);
      // Reserve (any step past the basket) loads what is left at once.
      await charts.readyFor(makeCheckout({ state: 'login', sale_reference: 'HF-1' }));
      expect(charts.loaded().sort()).toEqual([...stepChartNames].sort());
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
