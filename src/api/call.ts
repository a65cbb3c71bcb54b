/**
 * The call machinery behind src/api/client.ts, loaded with the first call: ky with credentials,
 * form-urlencoded bodies (JSON where the contract says so), a timeout, and every response parsed
 * with the wire contract, each call finding its own description in the contract's files
 * (contractSlices.ts), so the basket loads only its own calls' schemas.
 */
import type { Call, CallName, RequestOf, ResponseOf } from '../../contract';
import { CallFailed } from './callFailed';
import { errorReplySchema, findCall } from './contractSlices';

interface Transport {
  http: import('ky').KyInstance;
  HTTPError: typeof import('ky').HTTPError;
  toFormBody: typeof import('./form').toFormBody;
}

let loaded: Promise<Transport> | null = null;

/** ky and the form encoder, loaded once; a failed load is tried again by the next call. */
export function loadTransport(): Promise<Transport> {
  loaded ??= Promise.all([import('ky'), import('./form')]).then(
    ([{ default: ky, HTTPError }, { toFormBody }]) => ({
      http: ky.create({ credentials: 'include', timeout: 15_000, retry: 0, headers: { accept: 'application/json' } }),
      HTTPError,
      toFormBody,
    }),
    (err: unknown) => {
      loaded = null;
      throw err;
    },
  );
  return loaded;
}

/** What a call needs before it is sent: the transport and its own description. */
async function ready<T>(name: CallName, load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch {
    throw new CallFailed(name, null, null);
  }
}

export async function callApi<N extends CallName>(name: N, body?: RequestOf<N>): Promise<ResponseOf<N>> {
  const [transport, c] = await ready(name, Promise.all([loadTransport(), findCall(name)]));
  return send(transport, name, c, body);
}

/** One call given its description: for chunks loaded later (the seat page) that fill a path parameter in. */
export async function callWith<N extends CallName>(name: N, c: Call, body?: RequestOf<N>): Promise<ResponseOf<N>> {
  return send(await ready(name, loadTransport()), name, c, body);
}

async function send<N extends CallName>(
  transport: Transport,
  name: N,
  c: Call,
  body?: RequestOf<N>,
): Promise<ResponseOf<N>> {
  const { http, HTTPError, toFormBody } = transport;
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
        const parsed = (await errorReplySchema()).safeParse(body);
        if (parsed.success) message = (parsed.data as { error: string }).error;
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
