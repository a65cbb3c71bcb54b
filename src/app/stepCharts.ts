/**
 * The charts of the steps that own one, each in its step's own chunk: the entry script carries
 * none of them. The list comes from the steps' registry (`src/steps/steps.ts`): a step's module
 * names its chart as the root chart invokes it and says how to load it with the app's calls.
 *
 * The root machine is given a stand-in for each child, bound to the real chart once its chunk has
 * loaded. Every way into a child step passes through a read of the checkout (`loadCheckout`), and
 * that read waits for the charts unless the checkout is still at the basket, so a child is always
 * bound before it is invoked. At the basket only the next step's (the reservation's) loads, once
 * the page is idle; the rest load when the buyer reserves.
 */
import type { AnyActorLogic } from 'xstate';
import type { Checkout } from '../../contract/checkout';
import { stepCharts, stepModuleOf } from '../steps/steps';
import type { StepChartDeps } from '../steps/stepModule';

export type { StepChartDeps };

/** Every step chart: the child's name in the root chart, and its loader. */
export const stepChartLoaders: Record<string, (deps: StepChartDeps) => Promise<AnyActorLogic>> = Object.fromEntries(
  stepCharts().map((chart) => [chart.name, chart.load]),
);

export type StepChartName = string;

/**
 * Actor logic that stands in for `real` until it is bound, then is it in every respect (a proxy
 * onto the loaded chart). Used before binding, it fails loudly rather than invoking nothing.
 */
export function lateBound<Logic extends AnyActorLogic>(name: string): { logic: Logic; bind(real: Logic): void; isBound(): boolean } {
  let real: Logic | null = null;
  const target = (): Logic => {
    if (!real) throw new Error(`The ${name} step's chart was invoked before its chunk loaded`);
    return real;
  };
  const logic = new Proxy({} as Logic, {
    get: (_, key) => Reflect.get(target(), key),
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
  });
  return { logic, bind: (r) => (real = r), isBound: () => real !== null };
}

/** The stand-ins for the root machine, and the loading that binds them. */
export function createStepCharts(deps: StepChartDeps) {
  const names = Object.keys(stepChartLoaders);
  const slots: Record<string, ReturnType<typeof lateBound<AnyActorLogic>>> = Object.fromEntries(
    names.map((name) => [name, lateBound<AnyActorLogic>(name)]),
  );
  let loading: Promise<void> | null = null;

  /** Loads and binds every step chart (once; a failed load is tried again next time). */
  function loadAll(): Promise<void> {
    loading ??= Promise.all(
      names.map(async (name) => {
        const slot = slots[name]!;
        if (slot.isBound()) return;
        const loader = stepChartLoaders[name]!;
        const real = await loader(deps);
        if (!slot.isBound()) slot.bind(real);
      }),
    ).then(
      () => undefined,
      (err: unknown) => {
        loading = null;
        throw err;
      },
    );
    return loading;
  }

  /**
   * While the buyer is at the basket, only the next step's chart (the reservation's) loads, in an
   * idle moment; the later steps' charts load when the buyer reserves (`loadAll`, through the
   * root's `preparing` state), so the basket downloads nothing of them.
   */
  async function prefetchNext(): Promise<void> {
    const next = stepModuleOf('reserve').chart?.name;
    if (!next) return;
    await new Promise<void>((resolve) => whenIdle(resolve));
    const slot = slots[next];
    if (loading || !slot || slot.isBound()) return;
    const real = await stepChartLoaders[next]!(deps);
    if (!slot.isBound()) slot.bind(real);
  }

  /** Before the flow moves on from a fresh checkout: the basket needs no step chart, every later step may. */
  async function readyFor(checkout: Checkout): Promise<void> {
    if (checkout.state === 'basket' || checkout.state === 'determining') {
      void prefetchNext().catch(() => undefined);
      return;
    }
    await loadAll();
  }

  const actors: Record<string, AnyActorLogic> = Object.fromEntries(names.map((name) => [name, slots[name]!.logic]));
  /** The steps whose charts have loaded. */
  const loaded = () => names.filter((name) => slots[name]!.isBound());
  return { actors, loadAll, readyFor, loaded };
}

function whenIdle(run: () => void): void {
  if (typeof window !== 'undefined' && 'requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 0);
}
