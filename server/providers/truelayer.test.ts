/**
 * The TrueLayer adapter builds its requests as TrueLayer's Payments API v3 expects them (recorded
 * shapes below, no network): the client-credentials token, a payment created with an
 * Idempotency-Key and a Tl-Signature that verifies with the signing key's public half, the hosted
 * payment page's address, the status read back, a refund; and the webhook's signature is checked
 * against TrueLayer's published keys, refusing a foreign `jku`, a changed body or a wrong key.
 * Our signatures are checked, and TrueLayer's made, independently of the adapter: with TrueLayer's
 * own library, and by hand as TrueLayer's side signs its webhooks (with the `jku` in the header).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { bankSettings, parseConfig, testConfig } from '../config.ts';
import { openTestDatabase } from '../db/testing.ts';
import type { OpenDatabase } from '../db/index.ts';
import { capacityPools, paymentWebhookEvents, payments } from '../db/schema.ts';
import { drivers } from '../test/harness.ts';
import { hotEvent, signedInVisitor } from '../test/fixtures.ts';
import { bankWiring } from './bank.ts';
import { generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import * as tlSigning from 'truelayer-signing';
import { TRUELAYER_WEBHOOK_MESSAGES, truelayerBank, verifyTruelayerWebhook, wordOfStatus } from './truelayer.ts';
import { BANK_TRANSFER_MESSAGES } from '../../contract/messages/bankTransfer.ts';

const ours = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
const PEM = ours.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC_PEM = ours.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const SETTINGS = {
  clientId: 'sandbox-holdfast-1a2b3c',
  clientSecret: 'secret-9z8y',
  signingKeyId: '9f2b7bd6-c055-40b5-b616-120ccfd33c49',
  signingPrivateKey: PEM,
  merchantAccountId: 'a2dcee6d-7a00-414d-a1e6-8a2b23169e00',
  environment: 'sandbox' as const,
};

/** Recorded shapes of TrueLayer's replies. */
const TOKEN_REPLY = { access_token: 'eyJhbGciOi.token', expires_in: 3600, token_type: 'Bearer', scope: 'payments' };
const CREATED_REPLY = {
  id: '3f3c4a2e-5d4e-4d3a-9f1a-2b7c8d9e0f11',
  user: { id: 'user-7' },
  resource_token: 'rt-abc.def',
  status: 'authorization_required',
};

function recordingFetch(replies: Array<{ status?: number; body: unknown }>) {
  const requests: Array<{ url: string; method: string; headers: Record<string, string>; body: string | null }> = [];
  const fetchImpl = (async (url: string, init: RequestInit = {}) => {
    requests.push({
      url,
      method: init.method ?? 'GET',
      headers: Object.fromEntries(Object.entries((init.headers as Record<string, string>) ?? {})),
      body: (init.body as string) ?? null,
    });
    const next = replies.shift()!;
    return new Response(JSON.stringify(next.body), {
      status: next.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  return { requests, fetchImpl };
}

/** Checks a Tl-Signature the way TrueLayer does (with its own library), with our public key. */
function signatureVerifies(
  signature: string,
  method: string,
  path: string,
  headers: Array<[string, string]>,
  body: string,
): boolean {
  try {
    tlSigning.verify({
      publicKeyPem: PUBLIC_PEM,
      signature,
      method: method as tlSigning.HttpMethod,
      path,
      headers: Object.fromEntries(headers),
      requiredHeaders: headers.map(([name]) => name),
      body,
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * TrueLayer's side of a webhook: a `Tl-Signature` v2 (ES512 JWS, detached payload) over
 * `POST <path>`, the listed headers and the body, with the `jku` of TrueLayer's published keys in
 * its header, as TrueLayer signs the webhooks it sends.
 */
function signAsTruelayer(
  key: KeyObject,
  kid: string,
  jku: string,
  path: string,
  headers: Array<[string, string]>,
  body: string,
): string {
  const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');
  const header = b64url(
    JSON.stringify({ alg: 'ES512', kid, tl_version: '2', tl_headers: headers.map(([name]) => name).join(','), jku }),
  );
  const payload = b64url(`POST ${path}\n${headers.map(([name, value]) => `${name}: ${value}\n`).join('')}${body}`);
  return `${header}..${b64url(sign('sha512', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }))}`;
}

describe('TrueLayer adapter', () => {
  it('takes a token, then creates a signed payment with an idempotency key, in TrueLayer’s shapes', async () => {
    const { requests, fetchImpl } = recordingFetch([{ body: TOKEN_REPLY }, { status: 201, body: CREATED_REPLY }]);
    const bank = truelayerBank(SETTINGS, fetchImpl);
    const created = await bank.createPayment({
      amount: 1500,
      currency: 'gbp',
      idempotencyKey: 'sale-1:1:bank',
      saleId: 'sale-1',
      buyer: { id: 'user-7', name: 'Tom Okafor', email: 'tom.okafor@example.com', phone: null },
    });
    expect(created).toEqual({ id: CREATED_REPLY.id, resourceToken: 'rt-abc.def' });

    const [token, payment] = requests;
    expect(token).toMatchObject({ url: 'https://auth.truelayer-sandbox.com/connect/token', method: 'POST' });
    expect(Object.fromEntries(new URLSearchParams(token!.body!))).toEqual({
      grant_type: 'client_credentials',
      client_id: SETTINGS.clientId,
      client_secret: SETTINGS.clientSecret,
      scope: 'payments',
    });
    expect(payment).toMatchObject({ url: 'https://api.truelayer-sandbox.com/v3/payments', method: 'POST' });
    expect(payment!.headers).toMatchObject({
      authorization: 'Bearer eyJhbGciOi.token',
      'content-type': 'application/json',
      'Idempotency-Key': 'sale-1:1:bank',
    });
    expect(JSON.parse(payment!.body!)).toEqual({
      amount_in_minor: 1500,
      currency: 'GBP',
      payment_method: {
        type: 'bank_transfer',
        provider_selection: { type: 'user_selected' },
        beneficiary: { type: 'merchant_account', merchant_account_id: SETTINGS.merchantAccountId },
      },
      user: { id: 'user-7', name: 'Tom Okafor', email: 'tom.okafor@example.com' },
    });
    const signature = payment!.headers['Tl-Signature']!;
    const header = JSON.parse(Buffer.from(signature.split('.')[0]!, 'base64url').toString());
    expect(header).toEqual({
      alg: 'ES512',
      kid: SETTINGS.signingKeyId,
      tl_version: '2',
      tl_headers: 'Idempotency-Key',
    });
    expect(
      signatureVerifies(signature, 'POST', '/v3/payments', [['Idempotency-Key', 'sale-1:1:bank']], payment!.body!),
    ).toBe(true);
    expect(
      signatureVerifies(signature, 'POST', '/v3/payments', [['Idempotency-Key', 'sale-1:2:bank']], payment!.body!),
    ).toBe(false);
  });

  it('names the hosted payment page, reads a status back with the cached token, and refunds signed', async () => {
    const { requests, fetchImpl } = recordingFetch([
      { body: TOKEN_REPLY },
      { body: { id: CREATED_REPLY.id, status: 'executed' } },
      { body: { id: CREATED_REPLY.id, status: 'failed', failure_reason: 'canceled' } },
      { status: 202, body: { id: 'refund-1' } },
    ]);
    const bank = truelayerBank(SETTINGS, fetchImpl);
    const url = new URL(
      bank.paymentPageUrl({
        id: CREATED_REPLY.id,
        resourceToken: 'rt-abc.def',
        returnUri: 'https://tickets.example/do/checkout/truelayer_return/',
      }),
    );
    expect(url.origin).toBe('https://payment.truelayer-sandbox.com');
    expect(Object.fromEntries(new URLSearchParams(url.hash.slice(1)))).toEqual({
      payment_id: CREATED_REPLY.id,
      resource_token: 'rt-abc.def',
      return_uri: 'https://tickets.example/do/checkout/truelayer_return/',
    });
    expect(await bank.retrieve(CREATED_REPLY.id)).toEqual({ status: 'succeeded', failureMessage: null });
    expect(await bank.retrieve(CREATED_REPLY.id)).toEqual({
      status: 'failed',
      failureMessage: BANK_TRANSFER_MESSAGES.cancelled,
    });
    await bank.refund({ paymentId: CREATED_REPLY.id, amount: 1500, idempotencyKey: 'refund:sale-1:1:bank' });
    // One token for all three calls.
    expect(requests.filter((r) => r.url.endsWith('/connect/token'))).toHaveLength(1);
    expect(requests[1]).toMatchObject({
      url: `https://api.truelayer-sandbox.com/v3/payments/${CREATED_REPLY.id}`,
      method: 'GET',
    });
    const refund = requests[3]!;
    expect(refund.url).toBe(`https://api.truelayer-sandbox.com/v3/payments/${CREATED_REPLY.id}/refunds`);
    expect(JSON.parse(refund.body!)).toEqual({ amount_in_minor: 1500, reference: 'Holdfast refund' });
    expect(
      signatureVerifies(
        refund.headers['Tl-Signature']!,
        'POST',
        `/v3/payments/${CREATED_REPLY.id}/refunds`,
        [['Idempotency-Key', 'refund:sale-1:1:bank']],
        refund.body!,
      ),
    ).toBe(true);
  });

  it('maps TrueLayer’s statuses: executed or settled is paid, failed is not, the rest are still at the bank', () => {
    expect(wordOfStatus('settled').status).toBe('succeeded');
    expect(wordOfStatus('authorizing').status).toBe('processing');
    expect(wordOfStatus('authorized').status).toBe('processing');
    expect(wordOfStatus('failed', 'provider_rejected')).toEqual({
      status: 'failed',
      failureMessage: BANK_TRANSFER_MESSAGES.failed,
    });
  });

  describe('webhook signatures', () => {
    const theirs = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
    const jwk = { ...(theirs.publicKey.export({ format: 'jwk' }) as JsonWebKey), kid: 'tl-key-1' };
    const JKU = 'https://webhooks.truelayer-sandbox.com/.well-known/jwks';
    const path = '/ajax/checkout/truelayer/webhook';
    const body = JSON.stringify({ type: 'payment_executed', event_id: 'ev-1', payment_id: CREATED_REPLY.id });
    const headers = { 'x-tl-webhook-timestamp': '2026-06-01T12:00:00Z', 'tl-signature': '' };
    const signed = (jku = JKU, key = theirs.privateKey) =>
      signAsTruelayer(
        key,
        'tl-key-1',
        jku,
        path,
        [['X-Tl-Webhook-Timestamp', headers['x-tl-webhook-timestamp']]],
        body,
      );
    const jwks = async (url: string) => {
      if (url !== JKU) throw new Error('unexpected JWKS address');
      return { keys: [jwk] };
    };

    it('accepts TrueLayer’s signature over the path, the listed headers and the raw body', async () => {
      expect(await verifyTruelayerWebhook({ signature: signed(), path, headers, body }, 'sandbox', jwks)).toBe(true);
    });

    it('refuses a foreign jku, a changed body or header, another key, and a missing signature', async () => {
      expect(
        await verifyTruelayerWebhook(
          { signature: signed('https://evil.example/jwks'), path, headers, body },
          'sandbox',
          jwks,
        ),
      ).toBe(false);
      expect(
        await verifyTruelayerWebhook(
          { signature: signed(), path, headers, body: body.replace('executed', 'failed') },
          'sandbox',
          jwks,
        ),
      ).toBe(false);
      expect(
        await verifyTruelayerWebhook(
          {
            signature: signed(),
            path,
            headers: { ...headers, 'x-tl-webhook-timestamp': '2026-06-02T12:00:00Z' },
            body,
          },
          'sandbox',
          jwks,
        ),
      ).toBe(false);
      expect(
        await verifyTruelayerWebhook({ signature: signed(JKU, ours.privateKey), path, headers, body }, 'sandbox', jwks),
      ).toBe(false);
      expect(await verifyTruelayerWebhook({ signature: undefined, path, headers, body }, 'sandbox', jwks)).toBe(false);
      // A production server does not take the sandbox's keys.
      expect(await verifyTruelayerWebhook({ signature: signed(), path, headers, body }, 'production', jwks)).toBe(
        false,
      );
      // A key TrueLayer does not publish, and a signature that leaves out the webhook's timestamp.
      expect(
        await verifyTruelayerWebhook(
          {
            signature: signAsTruelayer(
              theirs.privateKey,
              'tl-key-unknown',
              JKU,
              path,
              [['X-Tl-Webhook-Timestamp', headers['x-tl-webhook-timestamp']]],
              body,
            ),
            path,
            headers,
            body,
          },
          'sandbox',
          jwks,
        ),
      ).toBe(false);
      expect(
        await verifyTruelayerWebhook(
          { signature: signAsTruelayer(theirs.privateKey, 'tl-key-1', JKU, path, [], body), path, headers, body },
          'sandbox',
          jwks,
        ),
      ).toBe(false);
      expect(await verifyTruelayerWebhook({ signature: 'not-a-jws', path, headers, body }, 'sandbox', jwks)).toBe(
        false,
      );
    });
  });

  it('is keyed only with all its settings; a partial key stops the start with a message naming what is missing', () => {
    expect(bankSettings({})).toEqual({ truelayer: null, pollIntervalMs: 1500 });
    expect(bankSettings({ TRUELAYER_POLL_INTERVAL_MS: '400' }).pollIntervalMs).toBe(400);
    expect(() => bankSettings({ TRUELAYER_POLL_INTERVAL_MS: '5' })).toThrow(/TRUELAYER_POLL_INTERVAL_MS/);
    expect(() => bankSettings({ TRUELAYER_CLIENT_ID: 'id', TRUELAYER_CLIENT_SECRET: 's' })).toThrow(
      /TRUELAYER_SIGNING_KEY_ID: required/,
    );
    const keyed = bankSettings({
      TRUELAYER_CLIENT_ID: 'id',
      TRUELAYER_CLIENT_SECRET: 's',
      TRUELAYER_SIGNING_KEY_ID: 'kid',
      TRUELAYER_SIGNING_PRIVATE_KEY: PEM,
      TRUELAYER_MERCHANT_ACCOUNT_ID: 'm',
      TRUELAYER_ENVIRONMENT: 'production',
    });
    expect(keyed.truelayer).toMatchObject({ clientId: 'id', environment: 'production' });
  });
});

/* ---------- TrueLayer keyed, through the real app on each driver ---------- */

describe.each(drivers)('TrueLayer keyed on %s', (driver) => {
  let database: OpenDatabase;
  let app: FastifyInstance;
  const theirs = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
  const jwk = { ...(theirs.publicKey.export({ format: 'jwk' }) as JsonWebKey), kid: 'tl-key-1' };
  const JKU = 'https://webhooks.truelayer-sandbox.com/.well-known/jwks';
  /** TrueLayer's side: a payment id per created payment, and the status each one reports. */
  const bankSide = { created: 0, statuses: new Map<string, string>() };
  const fetchImpl = (async (url: string, init: RequestInit = {}) => {
    const reply = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.endsWith('/connect/token')) return reply(TOKEN_REPLY);
    if (url === JKU) return reply({ keys: [jwk] });
    if (url.endsWith('/v3/payments') && init.method === 'POST') {
      const id = `tl-payment-${++bankSide.created}`;
      bankSide.statuses.set(id, 'authorization_required');
      return reply({ id, user: { id: 'u' }, resource_token: `rt-${id}`, status: 'authorization_required' }, 201);
    }
    const status = /\/v3\/payments\/([^/]+)$/.exec(url);
    if (status) return reply({ id: status[1], status: bankSide.statuses.get(status[1]!) ?? 'failed' });
    return reply({ error: 'unexpected' }, 404);
  }) as typeof fetch;
  const KEYS = {
    TRUELAYER_CLIENT_ID: SETTINGS.clientId,
    TRUELAYER_CLIENT_SECRET: SETTINGS.clientSecret,
    TRUELAYER_SIGNING_KEY_ID: SETTINGS.signingKeyId,
    TRUELAYER_SIGNING_PRIVATE_KEY: PEM,
    TRUELAYER_MERCHANT_ACCOUNT_ID: SETTINGS.merchantAccountId,
  };

  beforeAll(async () => {
    database = await openTestDatabase(driver, 8);
    app = await buildApp({
      db: database.db,
      config: testConfig({ checkoutTimeSeconds: 600 }),
      logger: false,
      bank: bankWiring(parseConfig(KEYS), fetchImpl),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  async function payingBuyer(poolTickets: number) {
    const { poolId, types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    const buyer = await signedInVisitor(app, database.db);
    await buyer.add({ [types[0]!.id]: poolTickets });
    await buyer.json('reserveTickets', {});
    const { auth_url } = (await buyer.json('payWithTruelayer', {})) as { auth_url: string };
    const id = new URLSearchParams(new URL(auth_url).hash.slice(1)).get('payment_id')!;
    return { buyer, poolId, id, auth_url };
  }

  /** The time TrueLayer says it sent a webhook: now, unless given. */
  const sentAt = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const webhook = (body: string, signature: string, timestamp = sentAt()) =>
    app.inject({
      method: 'POST',
      url: '/ajax/checkout/truelayer/webhook/',
      payload: body,
      headers: { 'content-type': 'application/json', 'x-tl-webhook-timestamp': timestamp, 'tl-signature': signature },
    });
  const signWith = (key: KeyObject, kid: string, body: string, timestamp = sentAt()) =>
    signAsTruelayer(key, kid, JKU, '/ajax/checkout/truelayer/webhook', [['X-Tl-Webhook-Timestamp', timestamp]], body);
  const sign = (body: string, timestamp = sentAt()) => signWith(theirs.privateKey, 'tl-key-1', body, timestamp);

  it('sends the buyer to TrueLayer’s hosted page; the signed webhook settles the payment once, a forged one is refused', async () => {
    const { buyer, poolId, id, auth_url } = await payingBuyer(2);
    expect(auth_url).toMatch(/^https:\/\/payment\.truelayer-sandbox\.com\/#payment_id=tl-payment-/);
    expect(new URLSearchParams(new URL(auth_url).hash.slice(1)).get('return_uri')).toMatch(
      /\/do\/checkout\/truelayer_return\/$/,
    );
    const body = JSON.stringify({ type: 'payment_executed', event_id: `ev-${id}`, payment_id: id });
    const forged = await webhook(body.replace('executed', 'failed'), sign(body));
    expect(forged.statusCode).toBe(400);
    expect((await webhook(body, sign(body))).statusCode).toBe(200);
    expect((await webhook(body, sign(body))).statusCode).toBe(200);
    const [pool] = await database.db.select().from(capacityPools).where(eq(capacityPools.id, poolId));
    expect(pool!.sold).toBe(2);
    // Back from TrueLayer: the step reads the completed payment.
    await buyer.request({ method: 'GET', url: `/do/checkout/truelayer_return/?payment_id=${id}` });
    expect(await buyer.checkout()).toMatchObject({
      state: 'awaiting_truelayer',
      truelayer_returned_from: 1,
      payment_complete: true,
    });
    expect(await buyer.json('getTruelayerStatus')).toMatchObject({ truelayer_status: { status: 'completed' } });
  });

  it('refuses a webhook signed by a key TrueLayer does not publish, and changes nothing', async () => {
    const { buyer, poolId, id } = await payingBuyer(1);
    const stranger = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
    const body = JSON.stringify({ type: 'payment_executed', event_id: `ev-stranger-${id}`, payment_id: id });
    for (const signature of [
      signWith(stranger.privateKey, 'tl-key-2', body),
      signWith(stranger.privateKey, 'tl-key-1', body),
    ]) {
      const res = await webhook(body, signature);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'The webhook signature does not match' });
    }
    const [payment] = await database.db.select().from(payments).where(eq(payments.providerPaymentId, id));
    expect(payment).toMatchObject({ provider: 'truelayer', status: 'requires_payment_method', outcome: null });
    const [pool] = await database.db.select().from(capacityPools).where(eq(capacityPools.id, poolId));
    expect(pool!.sold).toBe(0);
    expect(
      await database.db
        .select()
        .from(paymentWebhookEvents)
        .where(eq(paymentWebhookEvents.eventId, `truelayer:ev-stranger-${id}`)),
    ).toEqual([]);
    expect((await buyer.checkout()).payment_complete).toBe(false);
    // The same event signed by TrueLayer's published key is taken.
    expect((await webhook(body, sign(body))).statusCode).toBe(200);
    expect((await buyer.checkout()).payment_complete).toBe(true);
  });

  it('refuses a signed webhook sent more than five minutes ago (or dated ahead), or without its time, with a 400 and changes nothing', async () => {
    const { buyer, poolId, id } = await payingBuyer(1);
    const body = JSON.stringify({ type: 'payment_executed', event_id: `ev-old-${id}`, payment_id: id });
    for (const timestamp of [sentAt(Date.now() - 6 * 60_000), sentAt(Date.now() + 6 * 60_000), 'yesterday']) {
      const res = await webhook(body, sign(body, timestamp), timestamp);
      expect(res.statusCode, timestamp).toBe(400);
      expect(res.json(), timestamp).toEqual({ error: TRUELAYER_WEBHOOK_MESSAGES.stale });
    }
    const [pool] = await database.db.select().from(capacityPools).where(eq(capacityPools.id, poolId));
    expect(pool!.sold).toBe(0);
    expect(
      await database.db
        .select()
        .from(paymentWebhookEvents)
        .where(eq(paymentWebhookEvents.eventId, `truelayer:ev-old-${id}`)),
    ).toEqual([]);
    expect((await buyer.checkout()).payment_complete).toBe(false);
    // Sent four minutes ago: taken.
    const recent = sentAt(Date.now() - 4 * 60_000);
    expect((await webhook(body, sign(body, recent), recent)).statusCode).toBe(200);
    expect((await buyer.checkout()).payment_complete).toBe(true);
  });

  it('without a webhook, the status check reads TrueLayer and settles from its word', async () => {
    const { buyer, poolId, id } = await payingBuyer(1);
    expect(await buyer.json('getTruelayerStatus')).toMatchObject({ truelayer_status: { status: 'processing' } });
    bankSide.statuses.set(id, 'executed');
    expect(await buyer.json('getTruelayerStatus')).toMatchObject({
      truelayer_status: { status: 'completed', payment_completed: true },
    });
    const [payment] = await database.db.select().from(payments).where(eq(payments.providerPaymentId, id));
    expect(payment).toMatchObject({ provider: 'truelayer', status: 'succeeded', outcome: 'booked' });
    const [pool] = await database.db.select().from(capacityPools).where(eq(capacityPools.id, poolId));
    expect(pool!.sold).toBe(1);
  });
});
