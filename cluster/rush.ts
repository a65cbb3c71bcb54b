/**
 * Buyers over real HTTP through the balancer, as browsers in demo mode: from the catalogue's list of
 * events, on a queued date, sign in,
 * solve the proof of work and take a place in the waiting room, poll it until let in; then add
 * tickets, reserve, and pay by the sandbox card (its card page settles the payment as the
 * processor's webhook would) or by bank transfer (the sandbox bank's approval, then the status
 * polled until complete). Every answer is counted by kind, and what each buyer was told (their
 * place, admitted, reserved, booked) is kept to be checked against the database afterwards. A
 * request the cluster could not finish (a 503, a cut connection) is tried again, as the page's own
 * client does.
 */
import qs from 'qs';
import { solveChallenge } from 'altcha-lib/v1';
import { calls, type CallName } from '../contract/index.ts';
import { queueJoinPath, queueStatusPath } from '../contract/queuePage.ts';

/** What a journey buys: a ticket type, and its date's queue when the date is queued. */
export interface Target {
  ticketTypeId: number;
  /** The queued date to wait in line for first; null when the date has no queue. */
  queuedDateId: number | null;
}

export interface Told {
  userId: number;
  /** The queued date's place (its id, from the place's cookie), once the buyer was given one. */
  placeId: number | null;
  /** The buyer was told it is their turn and given the admission, which ends at `admissionEnds` (epoch seconds). */
  admitted: boolean;
  admissionEnds: number | null;
  /** How long the buyer waited in the queue for it, in ms, from taking the place. */
  waitedMs: number | null;
  /** The queue said the date was sold out, so the buyer went no further. */
  soldOutInQueue: boolean;
  /** The sale's reference when the buyer was told the tickets were reserved. */
  reserved: string | null;
  reservedAt: number | null;
  /** The buyer was told the payment completed and the tickets are theirs. */
  booked: boolean;
  method: 'card' | 'bank';
  /** Tickets asked for, then the tickets the checkout said were held (the last of a sold-out date may be fewer), then booked. */
  qty: number;
}

export class Counters {
  byKind = new Map<string, number>();
  /** Answers 4xx, by status and what was asked (ids left out). */
  refused = new Map<string, number>();
  holds: number[] = [];
  bookings: number[] = [];
  count(kind: string) {
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a buyer keeps trying one step the cluster could not finish. */
const RETRY_FOR_MS = 30_000;

export class Buyer {
  private cookies = new Map<string, string>();
  constructor(
    private base: string,
    private counters: Counters,
  ) {}

  /** One request, tried again while the answer says to (503) or the connection was cut. */
  async send(
    method: 'GET' | 'POST',
    path: string,
    body?: Record<string, unknown> | string,
  ): Promise<{ status: number; json: unknown; location: string | null }> {
    const until = Date.now() + RETRY_FOR_MS;
    for (;;) {
      let kind: string;
      try {
        const res = await fetch(this.base + path, {
          method,
          headers: {
            accept: 'application/json',
            'sec-fetch-site': 'same-origin',
            ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
            ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
          },
          body: body === undefined ? undefined : typeof body === 'string' ? body : qs.stringify(body),
          redirect: 'manual',
          signal: AbortSignal.timeout(20_000),
        });
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(';');
          const at = pair!.indexOf('=');
          this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
        }
        const text = await res.text();
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          /* a page or a redirect */
        }
        if (res.status !== 503) {
          this.counters.count(res.status >= 500 ? `${res.status}` : res.status >= 400 ? `${res.status}` : 'ok');
          if (res.status >= 400 && res.status < 500) {
            const what = `${res.status} ${method} ${path.split('?')[0]!.replace(/\d+/g, ':id')}`;
            this.counters.refused.set(what, (this.counters.refused.get(what) ?? 0) + 1);
          }
          return { status: res.status, json, location: res.headers.get('location') };
        }
        // The app's own 'try again' (its database went away) or the balancer's (no app host answered).
        kind = (json as { error?: string } | null)?.error?.includes('database')
          ? '503 database unavailable'
          : '503 from the balancer';
      } catch (err) {
        kind = (err as Error).name === 'TimeoutError' ? 'timed out' : 'connection cut';
      }
      this.counters.count(kind);
      if (Date.now() > until) throw new Error(`gave up on ${method} ${path} after ${kind}`);
      await sleep(250);
    }
  }

  /** A cookie the server set, as the browser keeps it. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async call(name: CallName, body: Record<string, unknown> = {}) {
    const c = calls[name];
    return c.method === 'GET'
      ? this.send('GET', Object.keys(body).length ? `${c.path}?${qs.stringify(body)}` : c.path)
      : this.send('POST', c.path, body);
  }
}

/** How often a waiting buyer asks for news at most: the queue's poll_ms, never slower than this. */
const POLL_AT_MOST_MS = 1000;

/** The solved proof of work the queue asks of a new place, as the queue page's script sends it. */
async function solved(buyer: Buyer): Promise<string> {
  const c = (await buyer.call('getCaptchaChallenge')).json as {
    algorithm: 'SHA-256';
    challenge: string;
    salt: string;
    signature: string;
    maxnumber: number;
  };
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('the proof of work could not be solved');
  return Buffer.from(
    JSON.stringify({
      algorithm: c.algorithm,
      challenge: c.challenge,
      number: solution.number,
      salt: c.salt,
      signature: c.signature,
    }),
  ).toString('base64');
}

type QueueAnswer = { state?: string; poll_ms?: number; error?: string };

/**
 * Takes a place in the date's queue and waits in it, as the queue page does, until the buyer is let
 * in (true), the date sells out or the rush ends (false). A join cut off mid-way is sent again with a
 * new proof of work (each is accepted once); the queue gives one place per account, so the account's
 * place is found again rather than a second taken.
 */
async function waitInQueue(buyer: Buyer, dateId: number, told: Told, until: () => boolean): Promise<boolean> {
  const join = async (): Promise<QueueAnswer> => {
    for (let tries = 0; ; tries++) {
      const res = await buyer.send('POST', queueJoinPath(dateId), { altcha: await solved(buyer) });
      if (res.status === 200) return res.json as QueueAnswer;
      // A proof of work the cluster took before the cut is spent: another one, as the page would.
      if (res.status !== 403 || tries >= 5)
        throw new Error(`joining the queue answered ${res.status}: ${JSON.stringify(res.json)}`);
    }
  };
  const joinedAt = Date.now();
  let answer = await join();
  for (;;) {
    const place = buyer.cookie(`hf_queue_${dateId}`);
    if (place) told.placeId = Number(place.split('.')[2]);
    switch (answer.state) {
      case 'admitted': {
        const admission = buyer.cookie(`hf_admit_${dateId}`);
        if (!admission) throw new Error('let in without an admission');
        told.admitted = true;
        told.waitedMs = Date.now() - joinedAt;
        told.admissionEnds = Number(admission.split('.')[3]);
        return true;
      }
      case 'sold-out':
        told.soldOutInQueue = true;
        return false;
      case 'no-place':
        answer = await join();
        continue;
      case 'before-sale':
      case 'waiting':
        break;
      default:
        throw new Error(`the queue answered ${JSON.stringify(answer)}`);
    }
    if (until()) return false;
    await sleep(Math.max(250, Math.min(POLL_AT_MOST_MS, answer.poll_ms ?? POLL_AT_MOST_MS)));
    const polled = await buyer.send('GET', queueStatusPath(dateId));
    if (polled.status !== 200) throw new Error(`the queue's poll answered ${polled.status}`);
    answer = polled.json as QueueAnswer;
  }
}

/** The tickets the checkout shows. */
const ticketsOf = (checkout: { tickets?: { qty: number }[] }) =>
  (checkout.tickets ?? []).reduce((n, t) => n + t.qty, 0);

/** One buyer's whole journey: what they were told is written into `told` as it happens. */
export async function journey(
  base: string,
  counters: Counters,
  target: Target,
  told: Told,
  until: () => boolean = () => false,
): Promise<void> {
  const buyer = new Buyer(base, counters);
  const ticketTypeId = target.ticketTypeId;
  // A buyer lands on the catalogue first (read from a replica, a moment stale at most).
  await buyer.send('GET', '/all-events/');
  // Demo mode's one-click sign-in: each journey is its own account, as each has its own basket.
  const signedIn = await buyer.send('POST', '/signin/', `user_id=${told.userId}`);
  if (signedIn.status !== 303) throw new Error(`signing in answered ${signedIn.status}`);
  if (target.queuedDateId !== null && !(await waitInQueue(buyer, target.queuedDateId, told, until))) return;
  const added = await buyer.send('POST', '/do/checkout/add/', {
    ticket: { [`0|0|${ticketTypeId}|0`]: { ticket: ticketTypeId, qty: told.qty } },
  });
  if (added.status >= 400) return;
  const reserved = await buyer.call('reserveTickets', {});
  if ((reserved.json as { reserved?: boolean } | null)?.reserved !== true) return;
  const checkout = (await buyer.call('getCheckout')).json as {
    sale_reference?: string | null;
    tickets?: { qty: number }[];
  };
  told.reserved = checkout.sale_reference ?? null;
  told.qty = ticketsOf(checkout);
  told.reservedAt = Date.now();
  counters.holds.push(told.reservedAt);
  await buyer.call('updateBasketState', { state: 'payment' });
  await buyer.call('setBillingAddress', { address: { postcode: 'LS1 4AP' } });

  if (told.method === 'card') {
    const token = (await buyer.call('getStripeToken')).json as { client_secret?: string };
    if (!token.client_secret) throw new Error(`no card payment: ${JSON.stringify(token)}`);
    const paid = await buyer.send('POST', '/sandbox/card/', {
      secret: token.client_secret,
      number: '4242424242424242',
      expiry: '12/34',
      cvc: '123',
    });
    // A retried card form whose first try went through finds the payment taken (404): the checkout says which.
    if (paid.status === 303 && paid.location) await buyer.send('GET', paid.location.replace(/^https?:\/\/[^/]+/, ''));
  } else {
    const bank = (await buyer.call('payWithTruelayer', { contact_number: '07700 900123' })).json as {
      auth_url?: string;
    };
    if (!bank.auth_url) throw new Error(`no bank payment: ${JSON.stringify(bank)}`);
    const token = new URL(bank.auth_url, 'http://x').searchParams.get('token')!;
    const decided = await buyer.send(
      'POST',
      '/sandbox/bank/',
      new URLSearchParams({ token, decision: 'approve' }).toString(),
    );
    if (decided.status === 303 && decided.location)
      await buyer.send('GET', decided.location.replace(/^https?:\/\/[^/]+/, ''));
    // The page polls the payment's status until the bank's word is in.
    for (let i = 0; i < 60; i++) {
      const s = (await buyer.call('getTruelayerStatus')).json as { truelayer_status?: { status?: string } };
      const status = s.truelayer_status?.status;
      if (status === 'completed' || status === 'failed' || status === 'cancelled') break;
      await sleep(300);
    }
  }
  const after = (await buyer.call('getCheckout')).json as {
    payment_complete?: boolean;
    sale_reference?: string | null;
    tickets?: { qty: number }[];
  };
  if (after.payment_complete === true) {
    // The confirmation shows the tickets booked (when it shows the lines at all).
    told.qty = ticketsOf(after) || told.qty;
    told.booked = true;
    if (after.sale_reference) told.reserved = after.sale_reference;
    counters.bookings.push(Date.now());
  }
}

/** `concurrency` buyers at a time until `until()`, each starting a new journey when one ends. */
export async function rush(opts: {
  base: string;
  concurrency: number;
  targets: Target[];
  /** One account per journey, taken in turn. */
  userIds: number[];
  until: () => boolean;
  counters: Counters;
  told: Told[];
  failures: string[];
}): Promise<void> {
  let n = 0;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (!opts.until()) {
        const i = n++;
        const userId = opts.userIds[i];
        if (userId === undefined) throw new Error('more journeys than accounts');
        const told: Told = {
          userId,
          placeId: null,
          admitted: false,
          admissionEnds: null,
          waitedMs: null,
          soldOutInQueue: false,
          reserved: null,
          reservedAt: null,
          booked: false,
          method: i % 2 === 0 ? 'card' : 'bank',
          qty: 1 + (i % 2),
        };
        opts.told.push(told);
        await journey(opts.base, opts.counters, opts.targets[i % opts.targets.length]!, told, opts.until).catch(
          (err: unknown) => opts.failures.push((err as Error).message),
        );
      }
    }),
  );
}
