/**
 * The charts of the steps that own one, each in its step's own chunk: the entry script carries
 * none of them. Their names are the contract's (`STEP_CHARTS`); how each loads with the app's calls
 * comes from the steps' registry (`src/steps/steps.ts`), itself loaded with the first chart.
 *
 * Until a step's chart has loaded, the root machine has the chart's stand-in (`providedByApp`),
 * which fails loudly if invoked. Once loaded, the chart is installed in the root machine's own
 * implementations, where XState looks up a child by name each time a state invokes it. Every way
 * into a child step passes through a read of the checkout (the root's `determining.loading`,
 * `basket.preparing` and each step's `advancing` states), and that read waits for the charts unless
 * the checkout is still at the basket, so a child is always installed before it is invoked. At the
 * basket only the next step's (the reservation's) loads, once the page is idle; the rest load when
 * the buyer reserves.
 *
 * The hold's clock (`countdown`, which the root spawns with the first hold: a reservation made, or a
 * sale resumed past it) loads with the rest: both ways to a hold pass through `loadAll` first.
 */
import { afterFirstScreen } from './firstScreen';
import type { AnyActorLogic } from 'xstate';
import type { Checkout } from '../../contract/checkout';
import { STEP_CHARTS } from '../../contract/steps';
import type { StepChartDeps } from '../steps/stepModule';

export type { StepChartDeps };

/** Every step chart, by the name the root chart invokes it by (the contract's `STEP_CHARTS`, each once). */
export const stepChartNames: readonly string[] = [...new Set(Object.values(STEP_CHARTS))];

/**
 * A step chart's loader, from the steps' registry. The registry is a chunk of its own, asked for
 * with the first chart (the reservation's, once the basket is idle): the basket's first screen
 * carries nothing of the later steps, not even their names and loaders.
 */
async function loaderOf(name: string): Promise<(deps: StepChartDeps) => Promise<AnyActorLogic>> {
  const { stepCharts } = await import('../steps/steps');
  const chart = stepCharts().find((c) => c.name === name);
  if (!chart) throw new Error(`No step owns the ${name} chart`);
  return (deps) => chart.load(deps);
}

/** The hold's clock, by the name the root spawns it by. */
const CLOCK = 'countdown';

/** The machine the charts are installed in: its implementations, looked up by name at each invoke. */
interface Installable {
  implementations: { actors: Record<string, unknown> };
}

/** The loading of the step charts, and their installation in the root machine. */
export function createStepCharts(deps: StepChartDeps) {
  const names = stepChartNames;
  const charts = new Map<string, AnyActorLogic>();
  let machine: Installable | null = null;
  let loading: Promise<void> | null = null;

  function install(name: string, real: AnyActorLogic): void {
    if (charts.has(name)) return;
    charts.set(name, real);
    if (machine) machine.implementations.actors[name] = real;
  }

  /** The root machine (as provided) whose children these are; charts loaded before are installed at once. */
  function installIn(root: Installable): void {
    machine = root;
    for (const [name, real] of charts) root.implementations.actors[name] = real;
  }

  /**
   * Loads and installs every step chart (once; a failed load is tried again next time), with the
   * rest of the contract's files, so the later steps' first calls do not wait for their schemas.
   */
  function loadAll(): Promise<void> {
    loading ??= Promise.all([
      ...names.map(async (name) => {
        if (!charts.has(name)) install(name, await (await loaderOf(name))(deps));
      }),
      import('./countdownChart').then(({ countdownChart }) => install(CLOCK, countdownChart())),
      import('../api/contractSlices').then(({ loadWholeContract }) => loadWholeContract()),
    ]).then(
      () => undefined,
      (err: unknown) => {
        loading = null;
        throw err;
      },
    );
    return loading;
  }

  /**
   * While the buyer is at the basket, only the next step's chart (the reservation's) loads, in the
   * first idle moment after the first screen is on the page; the later steps' charts load when the buyer reserves (`loadAll`, through the
   * root's `preparing` state), so the basket downloads nothing of them.
   */
  async function prefetchNext(): Promise<void> {
    const next = STEP_CHARTS.reserve;
    await new Promise<void>((resolve) => afterFirstScreen(resolve));
    if (loading || charts.has(next)) return;
    install(next, await (await loaderOf(next))(deps));
  }

  /** Before the flow moves on from a fresh checkout: the basket needs no step chart, every later step may. */
  async function readyFor(checkout: Checkout): Promise<void> {
    if (checkout.state === 'basket' || checkout.state === 'determining') {
      void prefetchNext().catch(() => undefined);
      return;
    }
    await loadAll();
  }

  /** The steps whose charts have loaded. */
  const loaded = () => names.filter((name) => charts.has(name));
  return { installIn, loadAll, readyFor, loaded };
}
