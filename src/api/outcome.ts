/**
 * Calls as outcomes (`contract/outcome.ts`): the one place that reads HTTP statuses and refusal
 * bodies, so the charts branch on `ok | refused | holdLost | failed` only.
 */
import {
  failed,
  HOLD_LOST_ON_THE_WIRE,
  holdLost,
  refused,
  type CallFailure,
  type CallOutcome,
} from '../../contract/outcome';
import { CallFailed } from './client';

/**
 * What a call's failure means to the buyer: a refusal body of type 'reserving' (`HOLD_LOST_ON_THE_WIRE`) is the hold lost; a
 * 4xx with the server's words (or naming its kind, such as 'sign_in') is a refusal; anything else
 * failed, and then `failedText` is the buyer's text (a server error's own words are not shown).
 */
export function failureFrom(err: unknown, failedText: string | null = null): CallFailure {
  if (err instanceof CallFailed) {
    const reason = (err.body as { type?: unknown } | null)?.type;
    if (reason === HOLD_LOST_ON_THE_WIRE) return holdLost(err.serverMessage ?? '');
    const refusedByServer = err.status !== null && err.status >= 400 && err.status < 500;
    if (refusedByServer && typeof reason === 'string') return refused(err.serverMessage ?? '', reason);
    if (refusedByServer && err.serverMessage) return refused(err.serverMessage);
  }
  return failed(failedText);
}

/** A call, as its outcome: it never rejects. */
export async function outcomeOf<T>(call: Promise<T>, failedText: string | null = null): Promise<CallOutcome<T>> {
  try {
    return { kind: 'ok', value: await call };
  } catch (err) {
    return failureFrom(err, failedText);
  }
}

/**
 * A call for an actor whose chart splits success (`onDone`) from failure (`onError`): its value, or
 * a rejection with its failure outcome, which the chart's guards branch on.
 */
export async function settled<T>(call: Promise<T>, failedText: string | null = null): Promise<T> {
  const outcome = await outcomeOf(call, failedText);
  if (outcome.kind === 'ok') return outcome.value;
  throw outcome;
}
