/**
 * What a call came to, as the charts branch on it: never on error classes or HTTP statuses. The
 * app's call layer (`src/api/outcome.ts`) turns every call into one of these; an actor whose chart
 * splits success from failure with `onDone`/`onError` rejects with the failure itself.
 */

/** The server said no, in its own words (`reason`: the refusal's kind where it names one, such as 'sign_in'). */
export interface Refused {
  kind: 'refused';
  message: string;
  reason?: string;
}
/**
 * The server no longer holds the buyer's tickets: its words become the basket's reserving error.
 * `holdLost` is the one name of this at every layer, and `kind` its one discriminant: the domain
 * refuses with `hold-lost`, a call ends in this outcome, and a step's chart whose call ended so
 * ends with this same value as its output (every chart's outcome is told by its `kind`, as a call's
 * is, while events are told by their `type`). Only the wire says it otherwise, as the specification
 * fixes it (`HOLD_LOST_ON_THE_WIRE`).
 */
export interface HoldLost {
  kind: 'holdLost';
  message: string;
}

/**
 * The `type` of a refusal body that says the hold is lost: the specification's word (spec 000,
 * check_one_time_code: errors carry type 'reserving'). The server sends it and the app's call layer reads it.
 */
export const HOLD_LOST_ON_THE_WIRE = 'reserving';
/** No answer the buyer can act on (the network, a server error, an answer that did not parse). */
export interface Failed {
  kind: 'failed';
  message: string | null;
}
export type CallFailure = Refused | HoldLost | Failed;
export type CallOutcome<T> = { kind: 'ok'; value: T } | CallFailure;

export const refused = (message: string, reason?: string): Refused =>
  reason === undefined ? { kind: 'refused', message } : { kind: 'refused', message, reason };
export const holdLost = (message: string): HoldLost => ({ kind: 'holdLost', message });
export const failed = (message: string | null = null): Failed => ({ kind: 'failed', message });

const FAILURE_KINDS: readonly string[] = ['refused', 'holdLost', 'failed'];

export function isCallFailure(error: unknown): error is CallFailure {
  return (
    typeof error === 'object' && error !== null && FAILURE_KINDS.includes((error as { kind?: unknown }).kind as string)
  );
}

/** A call's failure from what its actor rejected with: anything that is not a failure outcome (a crash) failed. */
export function failureOf(error: unknown): CallFailure {
  if (isCallFailure(error)) return error;
  return failed(error instanceof Error && error.message ? error.message : null);
}
