/**
 * Walks every call of the wire contract, so calls added later are covered without touching
 * this file: generated malformed, missing, oversized and wrongly typed fields, and malformed
 * bodies. Nothing may answer 5xx; a 4xx carries `{ error }`; a refused request changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import qs from 'qs';
import { calls, type CallName } from '../contract/index.ts';
import { shapeForSchema } from './http/calls.ts';
import { databaseDigest } from './test/digest.ts';
import { drivers, openWorld, Visitor, type TestWorld } from './test/harness.ts';

const RUNS_PER_CALL = 30;

/** Field names a call knows, a level deep, so generated bodies often hit real fields. */
function knownFields(name: CallName): string[] {
  const shape = (calls[name].request as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  return Object.keys(shape);
}

const scalar = fc.oneof(
  fc.integer({ min: -3, max: 40 }).map(String),
  fc.constantFrom(
    '0',
    '1',
    '-1',
    '1.5',
    '1e3',
    '2147483648',
    '99999999999999999999',
    'NaN',
    '',
    ' ',
    'true',
    'false',
    'yes',
    'basket',
    'login',
    'payment',
    'nope',
    'SUMMER10',
    '\u0000',
    '<script>',
    "' OR 1=1 --",
  ),
  // Control characters, NUL inside text, lone surrogates, and numbers a lenient parser would take.
  fc.constantFrom(
    'SUMMER10\u0000',
    'a\u0000@example.com',
    '\ud800',
    'x\udfff',
    '\u0007',
    '\u001b[31m',
    '\u007f',
    '\u0085',
    '\t1',
    '0x10',
    '1e2',
    ' 1 ',
    '+1',
    '０',
  ),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 40 }),
  fc.constant('x'.repeat(21_000)),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('ticket', 'qty', 'id', 'value', 'seats', '0', '1|2|3|0')),
      tie('node'),
      { maxKeys: 4 },
    ),
  ),
})).node;
const addLine = fc.record(
  { ticket: scalar, qty: scalar, seats: value, vz_id: scalar, has_offer: scalar },
  { requiredKeys: [] },
);

function bodyFor(name: CallName): fc.Arbitrary<Record<string, unknown>> {
  const fields = knownFields(name);
  const known = Object.fromEntries(
    fields.map((f) => [
      f,
      f === 'ticket'
        ? fc.dictionary(fc.constantFrom('1|1|1|0', 'a', '9|9|9|0'), addLine, { maxKeys: 3 })
        : f === 'gift_voucher'
          ? fc.dictionary(
              fc.constantFrom('1', '2', 'x'),
              fc.record({ id: scalar, qty: scalar, value: scalar }, { requiredKeys: [] }),
              { maxKeys: 3 },
            )
          : value,
    ]),
  );
  return fc
    .tuple(fc.record(known, { requiredKeys: [] }), fc.dictionary(fc.string({ maxLength: 10 }), value, { maxKeys: 2 }))
    .map(([k, extra]) => ({ ...extra, ...k }));
}

/** The server's own reading of a form or query, to know whether the contract must refuse it. */
function contractAccepts(name: CallName, encoded: string): boolean {
  const parsed = qs.parse(encoded, { depth: 5, parameterLimit: 500, parseArrays: false });
  const def = (calls[name].request as unknown as { _zod: { def: Parameters<typeof shapeForSchema>[1] } })._zod.def;
  return calls[name].request.safeParse(shapeForSchema(parsed, def)).success;
}

/** The server's own pages and forms, beside the contract's calls. */
const PAGES: { method: 'GET' | 'POST'; url: string; field: string }[] = [
  { method: 'POST', url: '/signin/', field: 'email' },
  { method: 'POST', url: '/signin/', field: 'user_id' },
  { method: 'POST', url: '/mailing-list', field: 'email' },
  { method: 'POST', url: '/signout/', field: 'x' },
  { method: 'GET', url: '/all-events/', field: 'error' },
  { method: 'GET', url: '/event/1/', field: 'error' },
  { method: 'GET', url: '/event/1/', field: 'ticket' },
  { method: 'GET', url: '/organiser/1/', field: 'x' },
  { method: 'GET', url: '/signin/', field: 'x' },
  { method: 'GET', url: '/signout/', field: 'x' },
];

describe.each(drivers)('contract fuzz on %s', (driver) => {
  let w: TestWorld;
  let visitor: Visitor;
  beforeAll(async () => {
    w = await openWorld(driver, { captcha: 'auto' });
    visitor = new Visitor(w.app);
    await visitor.add({ [w.demo.tickets.jazzGeneral]: 2 });
  });
  afterAll(async () => w?.close());

  /**
   * The digest of the database as it is now, when no request has been let through since it was taken:
   * a refusal leaves the database as it found it, so the digest taken after one is the next one's before.
   */
  let known: string | null = null;
  const digestNow = async () => known ?? (await databaseDigest(w.database.db));
  /** Any request that may change the database (one not proven refused) forgets the digest. */
  const changing = <T>(sent: Promise<T>): Promise<T> => {
    known = null;
    return sent;
  };

  async function expectRefusedWithoutChange(send: () => ReturnType<Visitor['request']>) {
    const before = await digestNow();
    known = null;
    const res = await send();
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(typeof res.json().error).toBe('string');
    const after = await databaseDigest(w.database.db);
    expect(after).toBe(before);
    known = after;
  }

  it.each(Object.keys(calls) as CallName[])('%s survives generated fields', async (name) => {
    const call = calls[name];
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(bodyFor(name), async (body) => {
        const encoded = qs.stringify(body);
        const send = () =>
          call.method === 'GET'
            ? visitor.request({ method: 'GET', url: `${call.path}?${encoded}` })
            : visitor.request({
                method: 'POST',
                url: call.path,
                body: encoded,
                headers: { accept: 'application/json' },
              });
        if (!contractAccepts(name, encoded) || encoded.length > 64 * 1024) {
          refused++;
          await expectRefusedWithoutChange(send);
          return;
        }
        const res = await changing(send());
        expect(res.statusCode, res.body).toBeLessThan(500);
        if (res.statusCode >= 400) expect(typeof res.json().error).toBe('string');
      }),
      { numRuns: RUNS_PER_CALL, seed: 20_260_601 },
    );
    // A call with required fields must have met refusals, or the generator is not probing it.
    if (!call.request.safeParse({}).success) expect(refused).toBeGreaterThan(0);
  });

  it.each(PAGES)('$method $url survives generated $field values', async ({ method, url, field }) => {
    await fc.assert(
      fc.asyncProperty(scalar, async (v) => {
        const encoded = qs.stringify({ [field]: v });
        const res =
          method === 'GET'
            ? await changing(visitor.request({ method, url: `${url}?${encoded}` }))
            : await changing(visitor.request({ method, url, body: encoded, headers: { accept: 'text/html' } }));
        expect(
          res.statusCode,
          `${url} ${field}=${JSON.stringify(v).slice(0, 40)}: ${res.body.slice(0, 200)}`,
        ).toBeLessThan(500);
      }),
      { numRuns: RUNS_PER_CALL, seed: 20_260_601 },
    );
  });

  const posts = (Object.keys(calls) as CallName[]).filter((n) => calls[n].method === 'POST');
  it.each(posts)('%s refuses malformed bodies', async (name) => {
    const path = calls[name].path;
    const malformed: { body: string; type: string; mustRefuse: boolean }[] = [
      { body: '{"ticket_id": 1,', type: 'application/json', mustRefuse: true },
      { body: '[1,2,3]', type: 'application/json', mustRefuse: true },
      { body: 'hello', type: 'text/plain', mustRefuse: true },
      { body: `code=${'y'.repeat(70 * 1024)}`, type: 'application/x-www-form-urlencoded', mustRefuse: true },
      { body: 'null', type: 'application/json', mustRefuse: false },
      { body: 'state=%E0%A4%A&code=%&ticket_id=%ZZ', type: 'application/x-www-form-urlencoded', mustRefuse: false },
      {
        body: Array.from({ length: 600 }, (_, i) => `f${i}=1`).join('&'),
        type: 'application/x-www-form-urlencoded',
        mustRefuse: false,
      },
      {
        body: 'ticket[a][b][c][d][e][f][g][h]=1&gift_voucher[__proto__][id]=1&constructor[prototype][x]=1',
        type: 'application/x-www-form-urlencoded',
        mustRefuse: false,
      },
    ];
    for (const m of malformed) {
      const label = `${m.type} ${m.body.slice(0, 40)}`;
      const before = await digestNow();
      const res = await changing(
        visitor.request({
          method: 'POST',
          url: path,
          body: m.body,
          headers: { 'content-type': m.type, accept: 'application/json' },
        }),
      );
      expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      if (m.mustRefuse) expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
      if (res.statusCode >= 400) {
        expect(typeof res.json().error, label).toBe('string');
        const after = await databaseDigest(w.database.db);
        expect(after, label).toBe(before);
        known = after;
      }
    }
  });
});
