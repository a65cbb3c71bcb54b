/**
 * The one HTTP client of the app. The entry carries only this: the error a call fails with, and
 * the calls themselves, whose machinery (ky, the form encoder and the contract's schemas, in
 * call.ts) loads with the first call; the first screen's data comes with the page.
 */
import type { Call, CallName, RequestOf, ResponseOf } from '../../contract';
import { CallFailed } from './callFailed';

export { CallFailed };

/** The call machinery, loaded once with the first call; a load that fails fails that call. */
function machineryFor(name: CallName): Promise<typeof import('./call')> {
  return import('./call').catch(() => {
    throw new CallFailed(name, null, null);
  });
}

export async function callApi<N extends CallName>(name: N, body?: RequestOf<N>): Promise<ResponseOf<N>> {
  return (await machineryFor(name)).callApi(name, body);
}

/** One call given its description: for chunks loaded later (the seat page) that fill a path parameter in. */
export async function callWith<N extends CallName>(name: N, c: Call, body?: RequestOf<N>): Promise<ResponseOf<N>> {
  return (await machineryFor(name)).callWith(name, c, body);
}
