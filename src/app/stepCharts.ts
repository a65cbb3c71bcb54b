/**
 * The charts of the steps that own one, each in its step's own chunk: the entry script carries
 * none of them. Their names are the contract's (`STEP_CHARTS`); how each loads with the app's calls
 * comes from the steps' registry (`src/steps/steps.ts`), itself loaded with the first chart.
 *
 * Until a step's chart has loaded, the root machine has the chart's stand-in (`providedByApp`),
 * which fails loudly if invoked. Once loaded, the chart is installed in the root machine's own
 * implementations, where XState looks up a child by name each time a state invokes it. The root
 * chart has one way past the basket, its `loadStepCharts` call (`loadAll` here), which it makes in
 * a state of its own before routing to a later step: Reserve's `basket.preparing`, and
 * `determining.loadingStepCharts` when a visit resumes past the basket. So a child is always
 * installed before it is invoked. At the basket only the next step's (the reservation's) loads,
 * once the page is idle (`prefetchNext`); the rest load when the buyer reserves.
 *
 * The hold's clock (`countdown`, which the root spawns with the first hold: a reservation made, or a
 * sale resumed past it) loads with the rest, in the same call.
 */
import { afterFirstScreen } from './firstScreen';
import type { AnyActorLogic } from 'xstate';
import { STEP_CHARTS, type StepChartName } from '../../contract/steps';
import type { StepChartDeps } from '../steps/stepModule';

export type { StepChartDeps };

/** Every step chart, by the name the root chart invokes it by (the contract's `STEP_CHARTS`, each once). */
export const stepChartNames: readonly StepChartName[] = [...new Set(Object.values(STEP_CHARTS))];

/**
 * A step chart's loader, from the steps' registry. The registry is a chunk of its own, asked for
 * with the first chart (the reservation's, once the basket is idle): the basket's first screen
 * carries nothing of the later steps, not even their names and loaders.
 */
async function loaderOf(name: StepChartName): Promise<(deps: StepChartDeps) => Promise<AnyActorLogic>> {
  const { stepCharts } = await import('../steps/steps');
  const chart = stepCharts().find((c) => c.name === name);
  if (!chart) throw new Error(`No step owns the ${name} chart`);
  return (deps) => chart.load(deps);
}

/** The hold's clock, by the name the root spawns it by. */
const CLOCK = 'countdown' as const;

/** The machine the charts are installed in: its implementations, looked up by name at each invoke. */
interface Installable {
  implementations: { actors: Record<string, unknown> };
}

/** The loading of the step charts, and their installation in the root machine. */
export function createStepCharts(deps: StepChartDeps) {
  const names = stepChartNames;
  const charts = new Map<StepChartName | typeof CLOCK, AnyActorLogic>();
  let machine: Installable | null = null;
  let loading: Promise<void> | null = null;

  function install(name: StepChartName | typeof CLOCK, real: AnyActorLogic): void {
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
   * first idle moment after the first screen is on the page; the later steps' charts load when the
   * buyer reserves (`loadAll`, through the root's `loadStepCharts` call), so the basket downloads
   * nothing of them. A visit that resumes past the basket asks for them all first: then this adds nothing.
   */
  async function prefetchNext(): Promise<void> {
    const next = STEP_CHARTS.reserve;
    await new Promise<void>((resolve) => afterFirstScreen(resolve));
    if (loading || charts.has(next)) return;
    install(next, await (await loaderOf(next))(deps));
  }

  /** The steps whose charts have loaded. */
  const loaded = () => names.filter((name) => charts.has(name));
  return { installIn, loadAll, prefetchNext, loaded };
}
