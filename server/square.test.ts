/**
 * Square through the real app on each driver: credentials only for a Square organiser's sale,
 * the sandbox's card token charged once and the sale booked, a declined card's message, the
 * address error; and the real adapter's CreatePayment and refund requests against Square's
 * recorded shapes, with Stripe's off-session instalment requests beside them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { payments, sales } from './db/schema.ts';
import { drivers, openWorld, Visitor, type TestWorld } from './test/harness.ts';
import { SANDBOX_CARDS, SQUARE_SANDBOX_APP_ID } from '../contract/index.ts';
import { ADDRESS_MESSAGES } from '../machines/address/address.messages.ts';
import { SQUARE_MESSAGES } from '../machines/square/square.messages.ts';
import { createPaymentRequest, refundPaymentRequest, squareApi, squareKeys, SQUARE_VERSION } from './domain/payment/square.ts';
import { offSessionPaymentRequest, paymentMethodRequest, setupIntentRequest, stripeSavedCards } from './domain/instalments/offSession.ts';

const ADDRESS = { first_name: 'Ann', last_name: 'Lee', address_1: '1 Quay St', address_2: '', town: 'Plymouth', postcode: 'PL1 2LD', state: '', country_code: 'GB' };

describe.each(drivers)('Square on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  async function squareBuyer(ticket = w.demo.square.stalls) {
    const v = new Visitor(w.app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.notSubscribed.id}` })).statusCode).toBe(303);
    expect((await v.add({ [ticket]: 2 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    return { v, saleId: sale!.id };
  }
  const token = async (v: Visitor, number: string = SANDBOX_CARDS.success) => ((await v.json('tokeniseSandboxSquareCard', { number, expiry: '12/34', cvc: '123' })) as { token: string }).token;

  it('chooses Square for the Square organiser and hands out the sandbox credentials; other sales get the spec’s refusal', async () => {
    const { v } = await squareBuyer();
    const checkout = await v.checkout();
    expect(checkout.sagepay_or_stripe).toBe('square');
    expect(await v.json('getSquareCredentials')).toEqual({ app_id: SQUARE_SANDBOX_APP_ID, location_id: 'holdfast-sandbox-location', checkout_js: '' });
    const other = await squareBuyer(w.demo.tickets.trail10k);
    const res = await other.v.call('getSquareCredentials');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: SQUARE_MESSAGES.credentials });
  });

  it('refuses a card the sandbox cannot take with its words, and an address without a postcode as the address error', async () => {
    const { v, saleId } = await squareBuyer();
    const bad = await v.call('tokeniseSandboxSquareCard', { number: '4242 4242 4242 4241', expiry: '12/34', cvc: '123' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: 'Your card number is incorrect.' });
    const res = await v.call('payWithSquare', { billing_address_data: { ...ADDRESS, postcode: '' }, source_id: await token(v) });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: ADDRESS_MESSAGES.completeAddress, response: { success: false, addressError: ADDRESS_MESSAGES.completeAddress } });
    expect(await w.database.db.select().from(payments).where(eq(payments.saleId, saleId))).toEqual([]);
  });

  it('shows a declined card’s message, then takes a good card once and books the sale', async () => {
    const { v, saleId } = await squareBuyer();
    const declined = await v.json('payWithSquare', { billing_address_data: ADDRESS, source_id: await token(v, SANDBOX_CARDS.decline) });
    expect(declined).toEqual({ response: { success: false, message: 'Your card was declined.' } });
    expect((await v.checkout()).payment_complete).toBe(false);
    const source = await token(v);
    const paid = (await v.json('payWithSquare', { billing_address_data: ADDRESS, source_id: source })) as { response: { success: boolean; payment: { status: string } } };
    expect(paid.response).toMatchObject({ success: true, payment: { status: 'COMPLETED' } });
    expect((await v.checkout()).payment_complete).toBe(true);
    const rows = await w.database.db.select().from(payments).where(eq(payments.saleId, saleId));
    expect(rows.map((p) => [p.provider, p.status, p.amount])).toEqual([
      ['square', 'failed', 2 * 2550],
      ['square', 'succeeded', 2 * 2550],
    ]);
    // The token is single-use, and a paid sale is not paid twice.
    const again = await v.call('payWithSquare', { billing_address_data: ADDRESS, source_id: source });
    expect(again.statusCode).toBe(409);
  });
});

describe('the real Square adapter', () => {
  const keys = squareKeys({ SQUARE_APPLICATION_ID: 'sandbox-sq0idb-abc123', SQUARE_ACCESS_TOKEN: 'EAAAl1234567890abcdefghijkl', SQUARE_LOCATION_ID: 'L8W9XYZ123' })!;

  it('builds CreatePayment as Square documents it, with the idempotency key kept under 45 characters', () => {
    const request = createPaymentRequest(keys, {
      sourceId: 'cnon:card-nonce-ok',
      amount: 5100,
      currency: 'gbp',
      idempotencyKey: '0b6e3f9a-6f3c-4f55-9a0e-2f1e5d7c9b11:1',
      reference: 'HF-ABC',
      address: ADDRESS,
    });
    expect(request.url).toBe('https://connect.squareupsandbox.com/v2/payments');
    expect(request.headers).toEqual({ authorization: 'Bearer EAAAl1234567890abcdefghijkl', 'content-type': 'application/json', 'square-version': SQUARE_VERSION });
    // Recorded shape: https://developer.squareup.com/reference/square/payments-api/create-payment
    expect(JSON.parse(request.body)).toEqual({
      idempotency_key: '0b6e3f9a-6f3c-4f55-9a0e-2f1e5d7c9b11:1',
      source_id: 'cnon:card-nonce-ok',
      amount_money: { amount: 5100, currency: 'GBP' },
      location_id: 'L8W9XYZ123',
      autocomplete: true,
      reference_id: 'HF-ABC',
      billing_address: { first_name: 'Ann', last_name: 'Lee', address_line_1: '1 Quay St', locality: 'Plymouth', postal_code: 'PL1 2LD', country: 'GB' },
    });
    const long = createPaymentRequest(keys, { sourceId: 's', amount: 1, currency: 'GBP', idempotencyKey: 'x'.repeat(80), reference: null, address: ADDRESS });
    expect((JSON.parse(long.body) as { idempotency_key: string }).idempotency_key.length).toBeLessThanOrEqual(45);
    expect(refundPaymentRequest(keys, { paymentId: 'sq_1', amount: 100, currency: 'gbp', idempotencyKey: 'refund:k' })).toMatchObject({
      url: 'https://connect.squareupsandbox.com/v2/refunds',
      body: JSON.stringify({ idempotency_key: 'refund:k', payment_id: 'sq_1', amount_money: { amount: 100, currency: 'GBP' } }),
    });
  });

  it('reads Square’s answers: a completed payment, a declined card’s detail, an address verification failure', async () => {
    const answers = [
      { status: 200, body: { payment: { id: 'R2B3', status: 'COMPLETED' } } },
      { status: 400, body: { errors: [{ category: 'PAYMENT_METHOD_ERROR', code: 'CARD_DECLINED', detail: 'Authorization error: \'CARD_DECLINED\'' }] } },
      { status: 400, body: { errors: [{ category: 'PAYMENT_METHOD_ERROR', code: 'ADDRESS_VERIFICATION_FAILURE', detail: 'AVS failed' }] } },
    ];
    const seen: string[] = [];
    const fakeFetch = (async (url: string) => {
      seen.push(url);
      const a = answers.shift()!;
      return new Response(JSON.stringify(a.body), { status: a.status });
    }) as unknown as typeof fetch;
    const api = squareApi(keys, fakeFetch);
    const p = { sourceId: 'cnon:x', amount: 100, currency: 'GBP', idempotencyKey: 'k', reference: null, address: ADDRESS, now: new Date() };
    expect(await api.charge(p)).toEqual({ status: 'succeeded', id: 'R2B3' });
    expect(await api.charge(p)).toEqual({ status: 'failed', message: 'Authorization error: \'CARD_DECLINED\'' });
    expect(await api.charge(p)).toEqual({ status: 'address', message: ADDRESS_MESSAGES.unableToFindBilling });
    expect(api.credentials).toEqual({ app_id: 'sandbox-sq0idb-abc123', location_id: 'L8W9XYZ123', checkout_js: 'https://sandbox.web.squarecdn.com/v1/square.js' });
    expect(seen).toEqual(Array(3).fill('https://connect.squareupsandbox.com/v2/payments'));
  });

  it('refuses malformed keys at start with a message naming the variable', () => {
    expect(() => squareKeys({ SQUARE_APPLICATION_ID: 'nope' })).toThrow(/SQUARE_APPLICATION_ID/);
    expect(squareKeys({})).toBeNull();
  });
});

describe('Stripe for plans (keyed)', () => {
  it('builds the SetupIntent and the off-session PaymentIntent as Stripe documents them', () => {
    expect(setupIntentRequest('sk_test_1', { customer: 'cus_1', idempotencyKey: 'setup:1' })).toEqual({
      url: 'https://api.stripe.com/v1/setup_intents',
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_1', 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': 'setup:1' },
      body: 'customer=cus_1&usage=off_session&payment_method_types%5B%5D=card',
    });
    const charge = offSessionPaymentRequest('sk_test_1', { customer: 'cus_1', paymentMethodId: 'pm_1', amount: 12600, currency: 'GBP', idempotencyKey: 'instalment:7:1', offSession: true, description: 'Instalment 2 of 3' });
    expect(charge.headers['idempotency-key']).toBe('instalment:7:1');
    expect(Object.fromEntries(new URLSearchParams(charge.body))).toEqual({
      amount: '12600',
      currency: 'gbp',
      customer: 'cus_1',
      payment_method: 'pm_1',
      'payment_method_types[]': 'card',
      confirm: 'true',
      description: 'Instalment 2 of 3',
      off_session: 'true',
    });
    expect(paymentMethodRequest('sk_test_1', 'pm_1').url).toBe('https://api.stripe.com/v1/payment_methods/pm_1');
  });

  it('charges the saved card’s customer and reads a refusal that needs the buyer', async () => {
    const calls: { url: string; body?: string }[] = [];
    const answers = [
      { customer: 'cus_9', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, funding: 'credit' } },
      { id: 'pi_1', status: 'succeeded' },
      { customer: 'cus_9', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, funding: 'credit' } },
      { error: { code: 'authentication_required', message: 'This payment needs the cardholder.' } },
    ];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, ...(init.body ? { body: String(init.body) } : {}) });
      const body = answers.shift()!;
      return new Response(JSON.stringify(body), { status: 'error' in body ? 402 : 200 });
    }) as unknown as typeof fetch;
    const cards = stripeSavedCards('sk_test_1', fakeFetch);
    const p = { paymentMethodId: 'pm_1', amount: 100, currency: 'gbp', idempotencyKey: 'k', offSession: true, now: new Date(), description: 'd' };
    expect(await cards.charge({} as never, p)).toEqual({ status: 'succeeded', id: 'pi_1' });
    expect(await cards.charge({} as never, p)).toEqual({ status: 'requires_action', message: 'This payment needs the cardholder.' });
    expect(new URLSearchParams(calls[1]!.body).get('customer')).toBe('cus_9');
  });
});

describe('the security policy with Square keyed', () => {
  it('is widened for Square’s SDK only when Square is keyed', async () => {
    const { cspDirectives } = await import('./http/security.ts');
    const plain = cspDirectives({ hcaptcha: null }, { styles: [], scripts: [] });
    const keyed = cspDirectives({ hcaptcha: null, square: true }, { styles: [], scripts: [] });
    expect(plain['script-src']!.join(' ')).not.toContain('squarecdn');
    expect(keyed['script-src']).toContain('https://web.squarecdn.com');
    expect(keyed['connect-src']).toContain('https://pci-connect.squareup.com');
    expect(keyed['frame-src']).toContain('https://sandbox.web.squarecdn.com');
  });
});
