import { firstScreenShown } from './firstScreen';
import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { createActor, fromPromise, type AnyActorLogic, type AnyStateNode } from 'xstate';
import { checkoutMachine } from '../../machines/checkout/checkout.machine';
import { makeCheckout } from '../../machines/testing/checkoutFixture';
import { paymentMachine } from '../../machines/payment/payment.machine';
import { accountMachine } from '../../machines/account/account.machine';
import { stepSaverMachine } from '../../machines/stepSaver/stepSaver.machine';
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

/** Read from the entry: the calls, the loading of the step charts and the basket (the step saver and the hold's clock are spawned, not invoked). */
const FROM_THE_ENTRY = ['loadCheckout', 'destroySale', 'loadStepCharts', 'basket'];

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

  it('installs the hold’s clock with the later steps’ charts, not before', async () => {
    const charts = createStepCharts({ queryClient: new QueryClient(), navigate: () => {}, userAgent: '' });
    const root = checkoutMachine.provide({});
    charts.installIn(root);
    const clock = () => root.implementations.actors.countdown as AnyActorLogic;
    expect(await failure(clock())).toMatch(/The countdown chart is provided by the app/);
    await charts.loadAll();
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

  it('a visit resumed past the basket loads the charts first, then runs its step’s real chart with the hold’s clock', async () => {
    const charts = createStepCharts({ queryClient: new QueryClient(), navigate: () => {}, userAgent: '' });
    const resumed = makeCheckout({ state: 'login', sale_reference: 'HF-1', seconds_remaining: 420 });
    const root = checkoutMachine.provide({
      actors: {
        loadCheckout: fromPromise(async () => resumed),
        loadStepCharts: fromPromise(() => charts.loadAll()),
        stepSaver: stepSaverMachine.provide({
          actors: { updateBasketState: fromPromise(async () => ({ seconds_remaining: 420 })) },
        }),
      },
    });
    charts.installIn(root);
    expect(charts.loaded()).toEqual([]);
    const actor = createActor(root);
    const errors: unknown[] = [];
    const seen: string[] = [];
    actor.subscribe({ next: (s) => seen.push(JSON.stringify(s.value)), error: (err) => errors.push(err) });
    actor.start();
    await vi.waitFor(() => expect(actor.getSnapshot().context.step).toBe('login'), { timeout: 15_000 });
    // Determining while the charts load: the step's own state is entered once they have.
    expect(seen).toContain(JSON.stringify({ determining: 'loadingStepCharts' }));
    expect(errors).toEqual([]);
    const { account, countdown } = actor.getSnapshot().children as Record<
      string,
      { getSnapshot(): { status: string; machine?: { id: string } } }
    >;
    expect(account!.getSnapshot().status).toBe('active');
    expect(account!.getSnapshot().machine!.id).toBe(accountMachine.id);
    expect(countdown!.getSnapshot().status).toBe('active');
    expect(errors).toEqual([]);
    actor.stop();
  });

  it('at the basket, loads only the next step’s chart (the reservation’s) in an idle moment after the first screen is shown; Reserve loads the rest', async () => {
    const idle: Array<() => void> = [];
    vi.stubGlobal('window', { requestIdleCallback: (run: () => void) => idle.push(run) });
    try {
      const charts = createStepCharts({ queryClient: new QueryClient(), navigate: () => {}, userAgent: '' });
      const prefetched = charts.prefetchNext();
      expect(charts.loaded()).toEqual([]);
      // Nothing is asked for before the first screen is on the page.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(idle).toHaveLength(0);
      firstScreenShown();
      // (The earlier tests' charts at the basket wait for the same first screen: theirs run here too.)
      await vi.waitFor(() => expect(idle.length).toBeGreaterThan(0));
      await new Promise((resolve) => setTimeout(resolve, 50));
      while (idle.length) idle.shift()!();
      await prefetched;
      expect(charts.loaded()).toEqual(['reservation']);
      // Nothing more loads while the buyer stays at the basket.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(idle).toHaveLength(0);
      expect(charts.loaded()).toEqual(['reservation']);
      // Reserve (the root's `loadStepCharts`) loads what is left at once.
      await charts.loadAll();
      expect(charts.loaded().sort()).toEqual([...stepChartNames].sort());
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
