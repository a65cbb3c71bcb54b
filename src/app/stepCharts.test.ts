import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { createActor, createMachine, type AnyStateNode } from 'xstate';
import { checkoutMachine } from '../../machines/checkout/checkout.machine';
import { makeCheckout } from '../../machines/testing/checkoutFixture';
import { paymentMachine } from '../../machines/payment/payment.machine';
import { createStepCharts, lateBound, stepChartLoaders } from './stepCharts';

/** What an actor of the logic reports when started: an unbound stand-in fails with its reason. */
function failure(logic: Parameters<typeof createActor>[0]): string | null {
  const snapshot = createActor(logic).getSnapshot() as { status: string; error?: unknown };
  return snapshot.status === 'error' ? String(snapshot.error) : null;
}

/** The children the root chart invokes or spawns, by the names its states use. */
function invokedChildren(node: AnyStateNode, found = new Set<string>()): Set<string> {
  for (const invoke of node.invoke) if (typeof invoke.src === 'string') found.add(invoke.src);
  for (const child of Object.values(node.states)) invokedChildren(child, found);
  return found;
}

/** Read from the entry: the calls, the reservation's preparation, the basket and the always-running children. */
const FROM_THE_ENTRY = ['loadCheckout', 'destroySale', 'prepareReservation', 'basket', 'countdown', 'stepSaver'];

describe('the step charts', () => {
  it('has a loader for every child step chart the root invokes, and for nothing else', () => {
    const stepChildren = [...invokedChildren(checkoutMachine.root)].filter((src) => !FROM_THE_ENTRY.includes(src)).sort();
    expect(stepChildren.length).toBeGreaterThan(0);
    expect(Object.keys(stepChartLoaders).sort()).toEqual(stepChildren);
  });

  it('binds every stand-in to its step’s chart once loaded, and then is that chart', async () => {
    const charts = createStepCharts({ queryClient: new QueryClient(), navigate: () => {}, userAgent: '' });
    expect(failure(charts.actors.payment!)).toMatch(/payment step's chart was invoked before its chunk loaded/);
    await charts.loadAll();
    const viaStandIn = createActor(charts.actors.payment!).start();
    const direct = createActor(paymentMachine).start();
    expect(viaStandIn.getSnapshot().value).toEqual(direct.getSnapshot().value);
    expect(viaStandIn.getSnapshot().machine.id).toBe(paymentMachine.id);
    viaStandIn.stop();
    direct.stop();
  });

  it('lets the flow on at the basket at once, and waits for the charts anywhere past it', async () => {
    const charts = createStepCharts({ queryClient: new QueryClient(), navigate: () => {}, userAgent: '' });
    await charts.readyFor(makeCheckout({ state: 'basket' }));
    expect(failure(charts.actors.account!)).toMatch(/before its chunk loaded/);
    await charts.readyFor(makeCheckout({ state: 'login', sale_reference: 'HF-1' }));
    expect(failure(charts.actors.account!)).toBeNull();
  });

  it('at the basket, loads only the next step’s chart (the reservation’s) in an idle moment; Reserve loads the rest', async () => {
    const idle: Array<() => void> = [];
    vi.stubGlobal('window', { requestIdleCallback: (run: () => void) => idle.push(run) });
    try {
      const charts = createStepCharts({ queryClient: new QueryClient(), navigate: () => {}, userAgent: '' });
      await charts.readyFor(makeCheckout({ state: 'basket' }));
      expect(charts.loaded()).toEqual([]);
      await vi.waitFor(() => expect(idle).toHaveLength(1));
      idle.shift()!();
      await vi.waitFor(() => expect(charts.loaded()).toEqual(['reservation']), { timeout: 15_000 });
      // Nothing more loads while the buyer stays at the basket.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(idle).toHaveLength(0);
      expect(charts.loaded()).toEqual(['reservation']);
      // Reserve (any step past the basket) loads what is left at once.
      await charts.readyFor(makeCheckout({ state: 'login', sale_reference: 'HF-1' }));
      expect(charts.loaded().sort()).toEqual(Object.keys(stepChartLoaders).sort());
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('answers as the bound logic does, whatever is asked of it', () => {
    const real = createMachine({ id: 'real', initial: 'a', states: { a: { on: { GO: 'b' } }, b: { type: 'final' } } });
    const slot = lateBound<typeof real>('example');
    expect(slot.isBound()).toBe(false);
    slot.bind(real);
    const actor = createActor(slot.logic).start();
    actor.send({ type: 'GO' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(Object.getPrototypeOf(slot.logic)).toBe(Object.getPrototypeOf(real));
    expect('transition' in slot.logic).toBe(true);
  });
});
