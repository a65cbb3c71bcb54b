/**
 * A local stand-in for seats.io's REST API, a real HTTP server on an ephemeral port, for the
 * `seatsio` SDK to be driven against (its Region pointed here). It answers the calls the SDK makes
 * for the server: hold tokens, an event's objects (`GET /events/{key}/objects?label=…`) and status
 * changes (`POST /events/groups/actions/change-object-status`: book, hold, release), in seats.io's
 * shapes, with its rules: an object held under a token is booked or released only with that token
 * while it lasts; a booked object is not booked again. Errors are `{ errors: [{ code, message }],
 * messages }` with a 400 (404 for an unknown event). It checks HTTP Basic with the secret key and
 * records every request.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSeatsioRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
}

export interface FakeSeatsioObject {
  status: 'free' | 'reservedByToken' | 'booked';
  holdToken?: string;
  orderId?: string;
}

export interface FakeSeatsio {
  base: string;
  requests: FakeSeatsioRequest[];
  /** Objects per event key, by label. */
  events: Map<string, Map<string, FakeSeatsioObject>>;
  /** The stand-in's clock, for hold tokens' expiry. */
  now: () => Date;
  /** A hold token as the chart starts one for a buyer, lasting `seconds`. */
  newHoldToken(seconds?: number): string;
  /** Holds objects as the chart does when the buyer selects them; throws what seats.io would refuse. */
  hold(eventKey: string, labels: string[], holdToken: string): void;
  expire(holdToken: string): void;
  /** When a hold token ends. */
  expiryOf(holdToken: string): Date | undefined;
  close(): Promise<void>;
}

const refusal = (code: string, message: string) => ({
  errors: [{ code, message }],
  messages: [message],
  requestId: randomBytes(4).toString('hex'),
});

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** `section-row-number` labels of a plan, all free. */
export function freeObjects(labels: string[]): Map<string, FakeSeatsioObject> {
  return new Map(labels.map((l) => [l, { status: 'free' as const }]));
}

/**
 * `events` are the event keys with their objects' labels; with `anyEvent`, any event key and any
 * `section-row-number` label is known, free until changed (for a whole seeded plan). `port` 0 is any free port.
 */
export async function startFakeSeatsio(opts: {
  secretKey: string;
  events: Record<string, string[]>;
  anyEvent?: boolean;
  port?: number;
}): Promise<FakeSeatsio> {
  const tokens = new Map<string, Date>();
  const requests: FakeSeatsioRequest[] = [];
  const events = new Map(Object.entries(opts.events).map(([key, labels]) => [key, freeObjects(labels)]));
  const fake: FakeSeatsio = {
    base: '',
    requests,
    events,
    now: () => new Date(),
    newHoldToken(seconds = 900) {
      const token = randomBytes(8).toString('hex');
      tokens.set(token, new Date(fake.now().getTime() + seconds * 1000));
      return token;
    },
    hold(eventKey, labels, holdToken) {
      change(eventKey, labels, { type: 'CHANGE_STATUS_TO', status: 'reservedByToken', holdToken });
    },
    expire(holdToken) {
      tokens.set(holdToken, new Date(0));
    },
    expiryOf: (holdToken) => tokens.get(holdToken),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function eventOf(key: string) {
    if (opts.anyEvent && !events.has(key)) events.set(key, new Map());
    const event = events.get(key);
    if (!event) throw new Refused(404, 'EVENT_NOT_FOUND', `Event not found: ${key}`);
    return event;
  }

  function liveToken(token: string | undefined): string | undefined {
    if (token === undefined) return undefined;
    const expires = tokens.get(token);
    if (!expires) throw new Refused(400, 'HOLD_TOKEN_NOT_FOUND', `Hold token not found: ${token}`);
    if (expires.getTime() <= fake.now().getTime())
      throw new Refused(400, 'HOLD_TOKEN_EXPIRED', 'The hold token has expired');
    return token;
  }

  /** An object held under a token that has expired is free again, as at seats.io. */
  function current(object: FakeSeatsioObject): FakeSeatsioObject {
    if (object.status === 'reservedByToken' && (tokens.get(object.holdToken!)?.getTime() ?? 0) <= fake.now().getTime())
      return { status: 'free' };
    return object;
  }

  /** All or nothing, as seats.io applies a status change. */
  function change(
    eventKey: string,
    labels: string[],
    r: { type: string; status?: string; holdToken?: string; orderId?: string },
  ) {
    const event = eventOf(eventKey);
    const token = liveToken(r.holdToken);
    const next = new Map<string, FakeSeatsioObject>();
    for (const label of labels) {
      if (opts.anyEvent && !event.has(label) && /^[^-]+-[^-]+-[^-]+$/.test(label)) event.set(label, { status: 'free' });
      const found = event.get(label);
      if (!found) throw new Refused(400, 'OBJECT_NOT_FOUND', `Object not found: ${label}`);
      const object = current(found);
      const heldByOther = object.status === 'reservedByToken' && object.holdToken !== token;
      if (r.type === 'RELEASE') {
        if (object.status === 'free' || heldByOther)
          throw new Refused(400, 'ILLEGAL_STATUS_CHANGE', `${label} is not held with that hold token`);
        next.set(label, { status: 'free' });
      } else if (r.status === 'booked') {
        if (object.status === 'booked' || heldByOther)
          throw new Refused(400, 'ILLEGAL_STATUS_CHANGE', `${label} is already ${object.status}`);
        next.set(label, { status: 'booked', ...(r.orderId ? { orderId: r.orderId } : {}) });
      } else if (r.status === 'reservedByToken') {
        if (object.status !== 'free')
          throw new Refused(400, 'ILLEGAL_STATUS_CHANGE', `${label} is already ${object.status}`);
        next.set(label, { status: 'reservedByToken', holdToken: token! });
      } else {
        throw new Refused(400, 'INVALID', `Unsupported status ${String(r.status)}`);
      }
    }
    for (const [label, object] of next) event.set(label, object);
    return Object.fromEntries([...next].map(([label, object]) => [label, info(label, object)]));
  }

  function info(label: string, object: FakeSeatsioObject) {
    const [section, row, number] = label.split('-');
    return {
      label,
      labels: { own: { label: number, type: 'seat' }, parent: { label: row, type: 'row' }, section },
      ids: { own: number, parent: row, section },
      objectType: 'seat',
      forSale: true,
      ...object,
    };
  }

  async function answer(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    requests.push({ method: req.method ?? '', path: url.pathname + url.search, body });
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(value === undefined ? '' : JSON.stringify(value));
    };
    if (url.pathname === '/__fake/health') return send(200, { ok: true });
    if (req.headers.authorization !== `Basic ${Buffer.from(`${opts.secretKey}:`).toString('base64')}`)
      return send(401, refusal('UNAUTHORIZED', 'Unauthorized'));
    try {
      const objects = /^\/events\/([^/]+)\/objects$/.exec(url.pathname);
      if (req.method === 'GET' && objects) {
        const event = eventOf(decodeURIComponent(objects[1]!));
        const labels = url.searchParams.getAll('label');
        if (opts.anyEvent) for (const l of labels) if (!event.has(l)) event.set(l, { status: 'free' });
        const unknown = labels.find((l) => !event.has(l));
        if (unknown) throw new Refused(400, 'OBJECT_NOT_FOUND', `Object not found: ${unknown}`);
        return send(200, Object.fromEntries(labels.map((l) => [l, info(l, current(event.get(l)!))])));
      }
      if (req.method === 'POST' && url.pathname === '/hold-tokens') {
        const token = fake.newHoldToken();
        return send(201, { holdToken: token, expiresAt: tokens.get(token)!.toISOString(), expiresInSeconds: 900 });
      }
      const extend = /^\/hold-tokens\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'POST' && extend) {
        const token = liveToken(decodeURIComponent(extend[1]!))!;
        const minutes = Number((body as { expiresInMinutes?: unknown } | null)?.expiresInMinutes);
        if (!Number.isInteger(minutes) || minutes < 0)
          throw new Refused(400, 'INVALID', 'expiresInMinutes must be a whole number');
        tokens.set(token, new Date(fake.now().getTime() + minutes * 60_000));
        return send(200, {
          holdToken: token,
          expiresAt: tokens.get(token)!.toISOString(),
          expiresInSeconds: minutes * 60,
        });
      }
      if (req.method === 'POST' && url.pathname === '/events/groups/actions/change-object-status') {
        const r = body as {
          type: string;
          status?: string;
          holdToken?: string;
          orderId?: string;
          events: string[];
          objects: { objectId: string }[];
        };
        const changed = r.events.map((key) =>
          change(
            key,
            r.objects.map((o) => o.objectId),
            r,
          ),
        );
        return send(200, { objects: Object.assign({}, ...changed) as object });
      }
      return send(404, refusal('NOT_FOUND', `No route ${req.method} ${url.pathname}`));
    } catch (err) {
      if (err instanceof Refused) return send(err.status, refusal(err.code, err.message));
      throw err;
    }
  }

  const server = createServer((req, res) => {
    answer(req, res).catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  fake.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
