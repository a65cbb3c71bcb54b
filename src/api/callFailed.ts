/** The error every call of the app fails with (client.ts, and the machinery it loads, call.ts). */
import type { CallName } from '../../contract';

/** A call that failed: `message` is the server's own text when it sent one. */
export class CallFailed extends Error {
  constructor(
    readonly call: CallName,
    readonly status: number | null,
    readonly serverMessage: string | null,
    /** The refusal's whole JSON body, for calls whose refusals carry more than `error`. */
    readonly body: unknown = null,
  ) {
    super(serverMessage ?? `${call} failed`);
  }
}
