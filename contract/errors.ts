/**
 * How a failed call's words reach a chart: the app's actors reject with a failure outcome
 * (`contract/outcome.ts`) or an Error whose message is the buyer's text (a refused call's error
 * carries the server's own as `serverMessage`).
 */
import { isCallFailure } from './outcome.ts';

/**
 * The words a failed call gives the buyer: the server's text when the call was refused with one,
 * else the error's own message, else the fallback (a failed call without the server's words never
 * shows the call's name).
 */
export function messageOf(error: unknown, fallback: string): string {
  if (isCallFailure(error)) return error.message || fallback;
  if (typeof error === 'object' && error !== null && 'serverMessage' in error) {
    const { serverMessage } = error as { serverMessage: unknown };
    return typeof serverMessage === 'string' && serverMessage ? serverMessage : fallback;
  }
  return error instanceof Error && error.message ? error.message : fallback;
}
