/**
 * The TrueLayer adapter builds its requests as TrueLayer's Payments API v3 expects them (recorded
 * shapes below, no network): the client-credentials token, a payment created with an
 * Idempotency-Key and a Tl-Signature that verifies with the signing key's public half, the hosted
 * payment page's address, the status read back, a refund; and the webhook's signature is checked
 * against TrueLayer's published keys, refusing a foreign `jku`, a changed body or a wrong key.
 */
import { describe, expect, it } from 'vitest';
import { createPublicKey, generateKeyPairSync, verify, type JsonWebKey } from 'node:crypto';
import { bankSettings, signingPayload, tlSignature, truelayerBank, verifyTruelayerWebhook, wordOfStatus } from './domain/payment/truelayer.ts';
import { BANK_TRANSFER_MESSAGES } from '../contract/index.ts';

const ours = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
const PEM = ours.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
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
const CREATED_REPLY = { id: '3f3c4a2e-5d4e-4d3a-9f1a-2b7c8d9e0f11', user: { id: 'user-7' }, resource_token: 'rt-abc.def', status: 'authorization_required' };

function recordingFetch(replies: Array<{ status?: number; body: unknown }>) {
  const requests: Array<{ url: string; method: string; headers: Record<string, string>; body: string | null }> = [];
  const fetchImpl = (async (url: string, init: RequestInit = {}) => {
    requests.push({ url, method: init.method ?? 'GET', headers: Object.fromEntries(Object.entries((init.headers as Record<string, string>) ?? {})), body: (init.body as string) ?? null });
    const next = replies.shift()!;
    return new Response(JSON.stringify(next.body), { status: next.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { requests, fetchImpl };
}

/** Checks a Tl-Signature the way TrueLayer does, with our public key. */
function signatureVerifies(signature: string, method: string, path: string, headers: Array<[string, string]>, body: string): boolean {
  const [header, detached, sig] = signature.split('.');
  if (detached !== '') return false;
  const signed = `${header}.${Buffer.from(signingPayload(method, path, headers, body)).toString('base64url')}`;
  return verify('sha512', Buffer.from(signed), { key: createPublicKey(PEM), dsaEncoding: 'ieee-p1363' }, Buffer.from(sig!, 'base64url'));
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
    expect(payment!.headers).toMatchObject({ authorization: 'Bearer eyJhbGciOi.token', 'content-type': 'application/json', 'Idempotency-Key': 'sale-1:1:bank' });
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
    expect(header).toEqual({ alg: 'ES512', kid: SETTINGS.signingKeyId, tl_version: '2', tl_headers: 'Idempotency-Key' });
    expect(signatureVerifies(signature, 'POST', '/v3/payments', [['Idempotency-Key', 'sale-1:1:bank']], payment!.body!)).toBe(true);
    expect(signatureVerifies(signature, 'POST', '/v3/payments', [['Idempotency-Key', 'sale-1:2:bank']], payment!.body!)).toBe(false);
  });

  it('names the hosted payment page, reads a status back with the cached token, and refunds signed', async () => {
    const { requests, fetchImpl } = recordingFetch([
      { body: TOKEN_REPLY },
      { body: { id: CREATED_REPLY.id, status: 'executed' } },
      { body: { id: CREATED_REPLY.id, status: 'failed', failure_reason: 'canceled' } },
      { status: 202, body: { id: 'refund-1' } },
    ]);
    const bank = truelayerBank(SETTINGS, fetchImpl);
    const url = new URL(bank.paymentPageUrl({ id: CREATED_REPLY.id, resourceToken: 'rt-abc.def', returnUri: 'https://tickets.example/do/checkout/truelayer_return/' }));
    expect(url.origin).toBe('https://payment.truelayer-sandbox.com');
    expect(Object.fromEntries(new URLSearchParams(url.hash.slice(1)))).toEqual({
      payment_id: CREATED_REPLY.id,
      resource_token: 'rt-abc.def',
      return_uri: 'https://tickets.example/do/checkout/truelayer_return/',
    });
    expect(await bank.retrieve(CREATED_REPLY.id)).toEqual({ status: 'succeeded', failureMessage: null });
    expect(await bank.retrieve(CREATED_REPLY.id)).toEqual({ status: 'failed', failureMessage: BANK_TRANSFER_MESSAGES.cancelled });
    await bank.refund({ paymentId: CREATED_REPLY.id, amount: 1500, idempotencyKey: 'refund:sale-1:1:bank' });
    // One token for all three calls.
    expect(requests.filter((r) => r.url.endsWith('/connect/token'))).toHaveLength(1);
    expect(requests[1]).toMatchObject({ url: `https://api.truelayer-sandbox.com/v3/payments/${CREATED_REPLY.id}`, method: 'GET' });
    const refund = requests[3]!;
    expect(refund.url).toBe(`https://api.truelayer-sandbox.com/v3/payments/${CREATED_REPLY.id}/refunds`);
    expect(JSON.parse(refund.body!)).toEqual({ amount_in_minor: 1500, reference: 'Holdfast refund' });
    expect(signatureVerifies(refund.headers['Tl-Signature']!, 'POST', `/v3/payments/${CREATED_REPLY.id}/refunds`, [['Idempotency-Key', 'refund:sale-1:1:bank']], refund.body!)).toBe(true);
  });

  it('maps TrueLayer’s statuses: executed or settled is paid, failed is not, the rest are still at the bank', () => {
    expect(wordOfStatus('settled').status).toBe('succeeded');
    expect(wordOfStatus('authorizing').status).toBe('processing');
    expect(wordOfStatus('authorized').status).toBe('processing');
    expect(wordOfStatus('failed', 'provider_rejected')).toEqual({ status: 'failed', failureMessage: BANK_TRANSFER_MESSAGES.failed });
  });

  describe('webhook signatures', () => {
    const theirs = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
    const jwk = { ...(theirs.publicKey.export({ format: 'jwk' }) as JsonWebKey), kid: 'tl-key-1' };
    const JKU = 'https://webhooks.truelayer-sandbox.com/.well-known/jwks';
    const path = '/ajax/checkout/truelayer/webhook';
    const body = JSON.stringify({ type: 'payment_executed', event_id: 'ev-1', payment_id: CREATED_REPLY.id });
    const headers = { 'x-tl-webhook-timestamp': '2026-06-01T12:00:00Z', 'tl-signature': '' };
    const signed = (jku = JKU, key = theirs.privateKey) =>
      tlSignature(key, 'tl-key-1', 'POST', path, [['X-Tl-Webhook-Timestamp', headers['x-tl-webhook-timestamp']]], body, { jku });
    const jwks = async (url: string) => {
      if (url !== JKU) throw new Error('unexpected JWKS address');
      return { keys: [jwk] };
    };

    it('accepts TrueLayer’s signature over the path, the listed headers and the raw body', async () => {
      expect(await verifyTruelayerWebhook({ signature: signed(), path, headers, body }, 'sandbox', jwks)).toBe(true);
    });

    it('refuses a foreign jku, a changed body or header, another key, and a missing signature', async () => {
      expect(await verifyTruelayerWebhook({ signature: signed('https://evil.example/jwks'), path, headers, body }, 'sandbox', jwks)).toBe(false);
      expect(await verifyTruelayerWebhook({ signature: signed(), path, headers, body: body.replace('executed', 'failed') }, 'sandbox', jwks)).toBe(false);
      expect(await verifyTruelayerWebhook({ signature: signed(), path, headers: { ...headers, 'x-tl-webhook-timestamp': '2026-06-02T12:00:00Z' }, body }, 'sandbox', jwks)).toBe(false);
      expect(await verifyTruelayerWebhook({ signature: signed(JKU, ours.privateKey), path, headers, body }, 'sandbox', jwks)).toBe(false);
      expect(await verifyTruelayerWebhook({ signature: undefined, path, headers, body }, 'sandbox', jwks)).toBe(false);
      // A production server does not take the sandbox's keys.
      expect(await verifyTruelayerWebhook({ signature: signed(), path, headers, body }, 'production', jwks)).toBe(false);
    });
  });

  it('is keyed only with all its settings; a partial key stops the start with a message naming what is missing', () => {
    expect(bankSettings({})).toEqual({ truelayer: null, pollIntervalMs: 1500 });
    expect(bankSettings({ TRUELAYER_POLL_INTERVAL_MS: '400' }).pollIntervalMs).toBe(400);
    expect(() => bankSettings({ TRUELAYER_POLL_INTERVAL_MS: '5' })).toThrow(/TRUELAYER_POLL_INTERVAL_MS/);
    expect(() => bankSettings({ TRUELAYER_CLIENT_ID: 'id', TRUELAYER_CLIENT_SECRET: 's' })).toThrow(/TRUELAYER_SIGNING_KEY_ID: required/);
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
