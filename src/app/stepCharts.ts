/**
 * The charts of the steps that own one (the root's `childStep` / `reservingChildStep` children),
 * each in its step's own chunk: the entry script carries none of them. A step registers here with
 * the child's name (as the root chart invokes it) and how to load its chart with the app's calls;
 * nothing else changes when a step is added.
 *
 * The root machine is given a stand-in for each child, bound to the real chart once its chunk has
 * loaded. Every way into a child step passes through a read of the checkout (`loadCheckout`), and
 * that read waits for the charts unless the checkout is still at the basket, so a child is always
 * bound before it is invoked. At the basket they load once the page is idle.
 */
import type { AnyActorLogic } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import type { Checkout } from '../../machines/checkout/checkout.types';

export interface StepChartDeps {
  queryClient: QueryClient;
  navigate(url: string): void;
  userAgent: string;
}

/** Every step chart: the child's name in the root chart, and its loader. Add a step here. */
export const stepChartLoaders = {
  reservation: async (deps: StepChartDeps) => (await import('../steps/reservationActors')).appReservationMachine(deps.queryClient, deps.userAgent),
  donation: async () => (await import('../steps/donation/stepActors')).appDonationMachine,
  giftAid: async () => (await import('../steps/donation/stepActors')).appGiftAidMachine,
  account: async (deps: StepChartDeps) => (await import('../steps/login/accountActors')).appAccountMachine(deps.queryClient),
  marketing: async (deps: StepChartDeps) => (await import('../steps/marketing/marketingActors')).appMarketingMachine(deps.queryClient),
  delivery: async (deps: StepChartDeps) => (await import('../steps/delivery/deliveryActors')).appDeliveryMachine(deps.queryClient),
  payment: async (deps: StepChartDeps) => (await import('../steps/payment/paymentActors')).appPaymentMachine(deps.queryClient, deps.navigate),
  address: async (deps: StepChartDeps) => (await import('../steps/address/deliveryAddressActors')).appDeliveryAddressMachine(deps.queryClient),
  questions: async (deps: StepChartDeps) => (await import('../steps/questions/questionsActors')).appQuestionsMachine(deps.queryClient),
  bankTransfer: async (deps: StepChartDeps) => (await import('../steps/bankTransfer/bankTransferActors')).appBankTransferMachine(deps.queryClient),
} satisfies Record<string, (deps: StepChartDeps) => Promise<AnyActorLogic>>;

export type StepChartName = keyof typeof stepChartLoaders;
type ChartOf<N extends StepChartName> = Awaited<ReturnType<(typeof stepChartLoaders)[N]>>;

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
  const names = Object.keys(stepChartLoaders) as StepChartName[];
  const slots = Object.fromEntries(names.map((name) => [name, lateBound<ChartOf<typeof name>>(name)])) as {
    [N in StepChartName]: ReturnType<typeof lateBound<ChartOf<N>>>;
  };
  let loading: Promise<void> | null = null;

  /** Loads and binds every step chart (once; a failed load is tried again next time). */
  function loadAll(): Promise<void> {
    loading ??= Promise.all(
      names.map(async (name) => {
        const slot = slots[name] as { bind(real: AnyActorLogic): void; isBound(): boolean };
        if (slot.isBound()) return;
        const loader = stepChartLoaders[name] as (d: StepChartDeps) => Promise<AnyActorLogic>;
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
   * While the buyer is at the basket, each step chart loads in an idle moment of its own, one after
   * another, so loading them never holds a phone's main thread for long; `loadAll` (a later step,
   * or Reserve) takes over whatever is left at once.
   */
  async function loadWhenIdle(): Promise<void> {
    for (const name of names) {
      await new Promise<void>((resolve) => whenIdle(resolve));
      if (loading) return;
      const slot = slots[name] as { bind(real: AnyActorLogic): void; isBound(): boolean };
      const loader = stepChartLoaders[name] as (d: StepChartDeps) => Promise<AnyActorLogic>;
      const real = await loader(deps);
      if (!slot.isBound()) slot.bind(real);
    }
  }

  /** Before the flow moves on from a fresh checkout: the basket needs no step chart, every later step may. */
  async function readyFor(checkout: Checkout): Promise<void> {
    if (checkout.state === 'basket' || checkout.state === 'determining') {
      void loadWhenIdle().catch(() => undefined);
      return;
    }
    await loadAll();
  }

  const actors = Object.fromEntries(names.map((name) => [name, slots[name].logic])) as { [N in StepChartName]: ChartOf<N> };
  /** The steps whose charts have loaded. */
  const loaded = () => names.filter((name) => (slots[name] as { isBound(): boolean }).isBound());
  return { actors, loadAll, readyFor, loaded };
}

function whenIdle(run: () => void): void {
  if (typeof window !== 'undefined' && 'requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 0);
}
