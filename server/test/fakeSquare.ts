/**
 * A local stand-in for Square's API (Payments and Refunds, version 2026), a real HTTP server on an
 * ephemeral port, for the Square SDK to be driven against: it checks the access token, keeps
 * payments and refunds once per idempotency key, answers in Square's shapes (snake_case,
 * `errors: [{ category, code, detail }]`) and records every request it was sent.
 *
 * A payment created with `autocomplete: false` is APPROVED until CompletePayment or CancelPayment;
 * ListPayments answers the location's payments, newest first.
 *
 * Square's sandbox test nonces decide a charge: `cnon:card-nonce-declined` is declined,
 * `cnon:card-nonce-rejected-postalcode` fails address verification, any other nonce is taken.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSquareRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown> | null;
}

interface Money {
  amount: number;
  currency: string;
}

export interface FakeSquarePayment {
  id: string;
  status: 'COMPLETED' | 'APPROVED' | 'FAILED' | 'CANCELED';
  amount_money: Money;
  location_id: string;
  source_id: string;
  reference_id?: string;
  note?: string;
  delay_action?: string;
  created_at: string;
}

export interface FakeSquareRefund {
  id: string;
  status: 'PENDING';
  payment_id: string;
  amount_money: Money;
  idempotency_key: string;
}

export interface FakeSquare {
  port: number;
  base: string;
  requests: FakeSquareRequest[];
  payments: Map<string, FakeSquarePayment>;
  refunds: FakeSquareRefund[];
  /** Runs while a CreatePayment is being answered, before the answer is sent (the buyer's world moves on meanwhile). */
  onCreate: (() => Promise<void>) | null;
  /** The amount Square takes for a requested one; by default what was asked. */
  takes: (requested: number) => number;
  /** When set, CreatePayment takes the card and then answers 500 (the answer is lost to the caller). */
  loseCreateAnswers: boolean;
  close(): Promise<void>;
}

const error = (category: string, code: string, detail: string) => ({ errors: [{ category, code, detail }] });

export async function startFakeSquare(opts: { accessToken: string }): Promise<FakeSquare> {
  const byKey = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const fake: FakeSquare = {
    port: 0,
    base: '',
    requests: [],
    payments: new Map(),
    refunds: [],
    onCreate: null,
    takes: (requested) => requested,
    loseCreateAnswers: false,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  async function answer(
    req: IncomingMessage,
    body: Record<string, unknown> | null,
  ): Promise<{ status: number; body: unknown }> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (req.headers.authorization !== `Bearer ${opts.accessToken}`)
      return {
        status: 401,
        body: error('AUTHENTICATION_ERROR', 'UNAUTHORIZED', 'This request could not be authorized.'),
      };
    if (req.method === 'POST' && path === '/v2/payments') {
      const key = String(body?.idempotency_key ?? '');
      const fingerprint = JSON.stringify({ ...body, idempotency_key: undefined });
      const earlier = byKey.get(`payment:${key}`);
      if (earlier && fake.loseCreateAnswers)
        return { status: 500, body: error('API_ERROR', 'INTERNAL_SERVER_ERROR', 'An internal error has occurred.') };
      if (earlier)
        return earlier.fingerprint === fingerprint
          ? earlier
          : {
              status: 400,
              body: error(
                'INVALID_REQUEST_ERROR',
                'IDEMPOTENCY_KEY_REUSED',
                'The idempotency key can only be retried with the same request data.',
              ),
            };
      if (fake.onCreate) await fake.onCreate();
      const money = body?.amount_money as Money;
      const source = String(body?.source_id ?? '');
      const payment: FakeSquarePayment = {
        id: randomBytes(14).toString('base64url').replace(/[-_]/g, 'Z'),
        status: body?.autocomplete === false ? 'APPROVED' : 'COMPLETED',
        amount_money: { amount: fake.takes(money.amount), currency: money.currency },
        location_id: String(body?.location_id ?? ''),
        source_id: source,
        ...(body?.reference_id ? { reference_id: String(body.reference_id) } : {}),
        ...(body?.note ? { note: String(body.note) } : {}),
        ...(body?.delay_action ? { delay_action: String(body.delay_action) } : {}),
        created_at: new Date().toISOString(),
      };
      let reply: { status: number; body: unknown };
      if (source === 'cnon:card-nonce-declined') {
        payment.status = 'FAILED';
        reply = {
          status: 402,
          body: { ...error('PAYMENT_METHOD_ERROR', 'CARD_DECLINED', "Authorization error: 'CARD_DECLINED'"), payment },
        };
      } else if (source === 'cnon:card-nonce-rejected-postalcode') {
        payment.status = 'FAILED';
        reply = {
          status: 402,
          body: {
            ...error(
              'PAYMENT_METHOD_ERROR',
              'ADDRESS_VERIFICATION_FAILURE',
              "Authorization error: 'ADDRESS_VERIFICATION_FAILURE'",
            ),
            payment,
          },
        };
      } else {
        reply = { status: 200, body: { payment } };
      }
      fake.payments.set(payment.id, payment);
      byKey.set(`payment:${key}`, { fingerprint, ...reply });
      if (fake.loseCreateAnswers)
        return { status: 500, body: error('API_ERROR', 'INTERNAL_SERVER_ERROR', 'An internal error has occurred.') };
      return reply;
    }
    if (req.method === 'GET' && path === '/v2/payments') {
      const query = new URL(req.url ?? '/', 'http://fake').searchParams;
      const since = query.get('begin_time') ? Date.parse(query.get('begin_time')!) : 0;
      const found = [...fake.payments.values()]
        .filter(
          (p) =>
            (!query.get('location_id') || p.location_id === query.get('location_id')) &&
            Date.parse(p.created_at) >= since,
        )
        .reverse();
      return { status: 200, body: found.length ? { payments: found } : {} };
    }
    const done = /^\/v2\/payments\/([^/]+)\/complete$/.exec(path);
    if (req.method === 'POST' && done) {
      const payment = fake.payments.get(decodeURIComponent(done[1]!));
      if (!payment)
        return {
          status: 404,
          body: error('INVALID_REQUEST_ERROR', 'NOT_FOUND', `Could not find payment with id: ${done[1]}`),
        };
      if (payment.status === 'COMPLETED') return { status: 200, body: { payment } };
      if (payment.status !== 'APPROVED')
        return {
          status: 400,
          body: error(
            'INVALID_REQUEST_ERROR',
            'BAD_REQUEST',
            `Payment ${payment.id} is in status ${payment.status} and cannot be completed.`,
          ),
        };
      payment.status = 'COMPLETED';
      return { status: 200, body: { payment } };
    }
    const one = /^\/v2\/payments\/([^/]+)(\/cancel)?$/.exec(path);
    if (one) {
      const payment = fake.payments.get(decodeURIComponent(one[1]!));
      if (!payment)
        return {
          status: 404,
          body: error('INVALID_REQUEST_ERROR', 'NOT_FOUND', `Could not find payment with id: ${one[1]}`),
        };
      if (req.method === 'GET' && !one[2]) return { status: 200, body: { payment } };
      if (req.method === 'POST' && one[2]) {
        if (payment.status !== 'APPROVED')
          return {
            status: 400,
            body: error(
              'INVALID_REQUEST_ERROR',
              'BAD_REQUEST',
              `Payment ${payment.id} is in status ${payment.status} and cannot be canceled.`,
            ),
          };
        payment.status = 'CANCELED';
        return { status: 200, body: { payment } };
      }
    }
    if (req.method === 'POST' && path === '/v2/refunds') {
      const key = String(body?.idempotency_key ?? '');
      const earlier = byKey.get(`refund:${key}`);
      if (earlier) return earlier;
      const payment = fake.payments.get(String(body?.payment_id ?? ''));
      if (!payment)
        return {
          status: 404,
          body: error(
            'INVALID_REQUEST_ERROR',
            'NOT_FOUND',
            `Could not find payment with id: ${String(body?.payment_id)}`,
          ),
        };
      const money = body?.amount_money as Money;
      if (payment.status !== 'COMPLETED' || money.amount > payment.amount_money.amount) {
        return {
          status: 400,
          body: error(
            'INVALID_REQUEST_ERROR',
            'REFUND_AMOUNT_INVALID',
            'The requested refund amount exceeds the amount available to refund.',
          ),
        };
      }
      const refund: FakeSquareRefund = {
        id: `${payment.id}_${randomBytes(6).toString('hex')}`,
        status: 'PENDING',
        payment_id: payment.id,
        amount_money: money,
        idempotency_key: key,
      };
      fake.refunds.push(refund);
      const reply = { status: 200, body: { refund } };
      byKey.set(`refund:${key}`, { fingerprint: '', ...reply });
      return reply;
    }
    return { status: 404, body: error('INVALID_REQUEST_ERROR', 'NOT_FOUND', `No route ${req.method} ${path}`) };
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      fake.requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body });
      answer(req, body).then(
        (reply) => {
          res.writeHead(reply.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply.body));
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify(error('API_ERROR', 'INTERNAL_SERVER_ERROR', String(err))));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.base = `http://127.0.0.1:${fake.port}`;
  return fake;
}
