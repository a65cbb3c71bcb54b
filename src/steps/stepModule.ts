/**
 * What a step of the checkout is to the app: one module per step of the spec, in the step's own
 * folder (`src/steps/<step in camelCase>/step.ts`; the two ticket-question steps share
 * `ticketQuestions/`). The registry (`src/steps/steps.ts`) lists them; the screen for a step, the
 * charts the root invokes and the diagrams in statecharts.md all come from there.
 */
import type { ComponentType } from 'react';
import type { AnyStateMachine } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import type { STEP_CHARTS, Step, StepChartName } from '../../contract/steps';
import type { StepChartLogic } from '../../machines/checkout/checkout.setup';

/** What a step's chart is given when the app loads it. */
export interface StepChartDeps {
  queryClient: QueryClient;
  navigate(url: string): void;
  userAgent: string;
}

/** The name the root chart invokes a step's chart by (the contract's `STEP_CHARTS`); never for a step without one. */
export type StepChartNameOf<S extends Step> = S extends keyof typeof STEP_CHARTS ? (typeof STEP_CHARTS)[S] : never;

/**
 * A step's own chart: the name the root chart invokes it by, and how the app loads it, typed as the
 * chart the root's stand-in for that name is (`StepChartLogic`): a loader that gives another chart
 * fails the type check.
 */
export interface StepChart<Name extends StepChartName = StepChartName> {
  /** The `src` (and id, and systemId) of the root chart's invoke on this step, as the contract's `STEP_CHARTS` names it. */
  name: Name;
  /** The chart with the app's calls, from the step's own chunk. */
  load(deps: StepChartDeps): Promise<StepChartLogic[Name]>;
  /** The chart as written (for statecharts.md). */
  definition(): Promise<AnyStateMachine>;
  /** The chart's source file, from the project's root. */
  file: string;
  /** How the chart sits in the flow (statecharts.md). */
  placement: string;
}

export interface StepModule<S extends Step = Step> {
  step: S;
  chart?: StepChart<StepChartNameOf<S>>;
  /** The screen: lazy (its own chunk), except for the steps every visit starts with. */
  Screen: ComponentType<{ step: S }>;
}

/** A step's module, typed by its step. */
export function stepModule<S extends Step>(module: StepModule<S>): StepModule<S> {
  return module;
}
