/**
 * The one HTTP client of the app: ky with credentials, form-urlencoded bodies (JSON where the
 * contract says so), a timeout, and every response parsed with the wire contract.
 *
 * ky and the contract's schemas are not part of the entry script: the first call loads them (the
 * first screen needs none, its data comes with the page; the contract is evaluated a file a task,
 * see contractSlices.ts), and every later call reuses them.
 */
import type { Call, CallName, RequestOf, ResponseOf } from '../../contract';

let loaded: Promise<{
  http: import('ky').KyInstance;
  HTTPError: typeof import('ky').HTTPError;
  contract: typeof import('../../contract');
  toFormBody: typeof import('./form').toFormBody;
}> | null = null;

/** ky, the wire contract and the form encoder, loaded once; a failed load is tried again by the next call. */
export function loadCallMachinery() {
  loaded ??= Promise.all([import('ky'), import('./contractSlices').then((m) => m.loadContract()), import('./form')]).then(
    ([{ default: ky, HTTPError }, contract, { toFormBody }]) => ({
      http: ky.create({ credentials: 'include', timeout: 15_000, retry: 0, headers: { accept: 'application/json' } }),
      HTTPError,
      contract,
      toFormBody,
    }),
    (err: unknown) => {
      loaded = null;
      throw err;
    },
  );
  return loaded;
}

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

async function machineryFor(name: CallName) {
  try {
    return await loadCallMachinery();
  } catch {
    throw new CallFailed(name, null, null);
  }
}

export async function callApi<N extends CallName>(name: N, body?: RequestOf<N>): Promise<ResponseOf<N>> {
  const machinery = await machineryFor(name);
  return send(machinery, name, (machinery.contract.calls as Record<string, Call>)[name]!, body);
}

/** One call given its description: for chunks loaded later (the seat page) that fill a path parameter in. */
export async function callWith<N extends CallName>(name: N, c: Call, body?: RequestOf<N>): Promise<ResponseOf<N>> {
  return send(await machineryFor(name), name, c, body);
}

async function send<N extends CallName>(
  machinery: Awaited<ReturnType<typeof loadCallMachinery>>,
  name: N,
  c: Call,
  body?: RequestOf<N>,
): Promise<ResponseOf<N>> {
  const { http, HTTPError, toFormBody } = machinery;
  const { errorReplySchema } = machinery.contract;
  let raw: unknown;
  try {
    const payload = body ?? {};
    if (c.method === 'GET') {
      const search = toFormBody(payload);
      raw = await http.get(c.path + (search ? `?${search}` : '')).json();
    } else if (c.encoding === 'json') {
      raw = await http.post(c.path, { json: payload }).json();
    } else {
      raw = await http
        .post(c.path, {
          body: toFormBody(payload),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
        .json();
    }
  } catch (err) {
    if (err instanceof HTTPError) {
      let message: string | null = null;
      let body: unknown = null;
      try {
        body = await err.response.clone().json();
        const parsed = errorReplySchema.safeParse(body);
        if (parsed.success) message = parsed.data.error;
      } catch {
        message = null;
      }
      throw new CallFailed(name, err.response.status, message, body);
    }
    throw new CallFailed(name, null, null);
  }
  const parsed = c.response.safeParse(raw);
  if (!parsed.success) throw new CallFailed(name, 200, null);
  return parsed.data as ResponseOf<N>;
}
