/**
 * The stand-ins a chart's `setup` names for what the app provides with `.provide()`: calls
 * (promise actors), step charts loaded from their own chunks, and side-effect actions. Each fails
 * loudly (or does nothing, for an action) until it is provided, so a chart never calls the network
 * or the browser by itself, and a test that forgets a fake sees which one.
 */
import { fromCallback, fromPromise, type AnyActorLogic, type EventObject } from 'xstate';
import { unchecked } from '../contract/unchecked';

function missing(what: string): Promise<never> {
  return Promise.reject(new Error(`${what} is provided by the app`));
}

export const providedByApp = {
  /** A call: a promise actor with its output and input types. */
  call<TOutput, TInput = void>(name: string) {
    return fromPromise<TOutput, TInput>(() => missing(name));
  },
  /** A callback actor (a clock, a subscription) with the events it sends back and its input. */
  callback<TEvent extends EventObject, TInput = void>(name: string) {
    return fromCallback<TEvent, TInput>(() => {
      throw new Error(`${name} is provided by the app`);
    });
  },
  /** A chart the app provides from its own chunk, named here by its type only. */
  chart<Logic extends AnyActorLogic>(name: string): Logic {
    // The stand-in only has to be replaced before it is invoked: the app provides the real chart under `name`.
    return unchecked<Logic>(fromPromise(() => missing(`The ${name} chart`)));
  },
  /**
   * The charts the app provides from their own chunks, one stand-in per name (a list such as the
   * contract's `STEP_CHARTS`, whose values are the names), each typed as the chart the app will
   * provide under that name (`Charts`, from type-only imports of the charts), so the parent's
   * `onDone` and the done events its guards and actions read carry each chart's own output.
   */
  charts<Charts extends Record<string, AnyActorLogic>>(names: Readonly<Record<string, keyof Charts & string>>): Charts {
    const unique = new Set(Object.values(names));
    // Every name has its stand-in, each typed by `chart` as the chart `Charts` names for it.
    return unchecked<Charts>(Object.fromEntries([...unique].map((name) => [name, providedByApp.chart(name)])));
  },
  /** A side effect (navigation, the clipboard, a cache), with its params' type. */
  action<TParams = undefined>() {
    return (_: unknown, _params: TParams) => {};
  },
};
