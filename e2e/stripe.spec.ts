/**
 * The card taken by Stripe's Payment Element when the server is keyed for Stripe. Nothing here
 * reaches Stripe: the server's SDK talks to the local stand-in for Stripe's API that the run
 * starts (e2e/fakeStripe.ts, STRIPE_API_BASE), and the browser's requests for js.stripe.com (a
 * small Stripe.js) and api.stripe.com (the elements session and the confirmation) are routed to
 * it. The stand-in delivers Stripe's signed webhooks to the server. The sandbox server never loads
 * Stripe's code.
 */
import type { APIRequestContext, Page, Request } from '@playwright/test';
import { expectNoAxeViolations, expectTargetSizes } from './a11y.ts';
import type { FakeDelivery, FakeIntent, FakeRefund } from './fakeStripe.ts';
import { routeStripe, stripeState } from './stripeRoutes.ts';
import {
  answerLanternQuestions,
  expect,
  expectStep,
  photographBothWidths,
  test,
  throughDelivery,
  newBuyerAt,
  urls,
  fillBillingAddress,
} from './support.ts';

interface FakeState {
  intents: FakeIntent[];
  refunds: FakeRefund[];
  deliveries: FakeDelivery[];
}
const fakeState = (request: APIRequestContext) => stripeState<FakeState>(request);

/** The amount on the Pay button, in pence. */
async function payAmount(page: Page): Promise<number> {
  const label = (await page.getByRole('button', { name: /^Pay £/ }).textContent()) ?? '';
  return Math.round(Number(/£([\d,]+\.\d\d)/.exec(label)![1]!.replace(/,/g, '')) * 100);
}

interface Seen {
  keys: string[];
  elementsOptions: { clientSecret?: string; appearance?: unknown } | null;
  created: string | null;
  confirms: { returnUrl: string; number: string; sameElements: boolean }[];
}

/** Requests for Stripe's script and for the app's Stripe chunk, as they happen. */
function watchStripeLoads(page: Page): Request[] {
  const loads: Request[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith('https://js.stripe.com/') || /\/assets\/StripeCard-[^/]+\.js$/.test(r.url())) loads.push(r);
  });
  return loads;
}

async function toLanternPayment(page: Page) {
  await newBuyerAt(
    page,
    'Ashcombe Winter Lantern Trail',
    { tickets: { 'Adult (5pm entry)': 1 } },
    'ticket_questions_before',
  );
  await answerLanternQuestions(page);
  await expectStep(page, 'payment');
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { __stripeFake: Seen }).__stripeFake);

test.describe('with Stripe keyed', () => {
  test.use({ baseURL: urls.stripe });

  test('the Payment Element takes the card on the payment step only, and Stripe’s refusal is shown', async ({
    page,
    request,
  }, testInfo) => {
    const loads = watchStripeLoads(page);
    const apiCalls = await routeStripe(page);
    await toLanternPayment(page);
    await fillBillingAddress(page);
    // Nothing of Stripe is fetched before the card is to be taken.
    expect(loads.map((r) => r.url())).toEqual([]);

    const amount = await payAmount(page);
    await page.getByRole('button', { name: /^Pay £/ }).click();
    const card = page.getByLabel('Card number (Stripe)');
    await expect(card).toBeVisible();
    expect(loads.some((r) => /\/assets\/StripeCard-/.test(r.url()))).toBe(true);
    expect(
      loads.filter((r) => r.url().startsWith('https://js.stripe.com/')).map((r) => new URL(r.url()).pathname),
    ).toEqual(['/endive/stripe.js']);
    const before = await seen(page);
    expect(before.keys).toEqual(['pk_test_holdfast']);
    expect(before.created).toBe('payment');
    // The server made the PaymentIntent at Stripe for what the Pay button says; the Element has its client secret.
    const intent = (await fakeState(request)).intents.find(
      (i) => i.client_secret === before.elementsOptions?.clientSecret,
    );
    expect(intent).toMatchObject({
      amount,
      currency: 'gbp',
      status: 'requires_payment_method',
      metadata: { sale_id: expect.any(String) },
    });
    expect(apiCalls).toEqual(['GET /v1/elements/sessions']);
    // While Stripe has the card, the details above cannot change: the billing address is shown as given, not as a form.
    await expect(page.getByLabel('Postcode or zip code')).toHaveCount(0);
    await expect(page.getByRole('group', { name: 'Billing address' })).toContainText(
      '4 Mill Lane, Cirencester, GL7 1AB',
    );
    await photographBothWidths(page, testInfo, 'stripe-card');
    await expectNoAxeViolations(page, 'the payment step with the Payment Element');
    await page.setViewportSize({ width: 360, height: 740 });
    await expectTargetSizes(page, 'the payment step with the Payment Element');
    expect((await seen(page)).elementsOptions).toMatchObject({
      appearance: { theme: 'stripe', variables: { colorPrimary: '#0f766e' } },
    });

    // Fields left incomplete stay with the Element, for the buyer to correct.
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect.poll(async () => (await seen(page)).confirms.length).toBe(1);
    await expect(card).toBeVisible();

    await card.fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
    await expect(card).toBeHidden();
    const after = await seen(page);
    expect(after.confirms[1]).toEqual({
      returnUrl: `${urls.stripe}/do/checkout/stripe_auth/`,
      number: '4000000000000002',
      sameElements: true,
    });
    expect(apiCalls).toEqual(['GET /v1/elements/sessions', `POST /v1/payment_intents/${intent!.id}/confirm`]);
    // Stripe told the server by its signed webhook, which the server took.
    const told = await fakeState(request);
    expect(told.deliveries.filter((d) => d.intent === intent!.id)).toEqual([
      { type: 'payment_intent.payment_failed', intent: intent!.id, status: 200 },
    ]);
    expect(told.intents.find((i) => i.id === intent!.id)).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined' },
    });
    // The step is ready again: the details can change and Pay starts afresh.
    await expect(page.getByLabel('Postcode or zip code')).toBeEnabled();
    await expect(page.getByRole('button', { name: /^Pay £/ })).toBeEnabled();
    await photographBothWidths(page, testInfo, 'stripe-declined');
  });

  test('a buyer pays by card with Stripe: the PaymentIntent is made there, the card confirmed, the signed webhook books the ticket, and it is in the wallet', async ({
    page,
    request,
  }) => {
    await page.clock.install();
    const apiCalls = await routeStripe(page);
    await toLanternPayment(page);
    await fillBillingAddress(page);
    const amount = await payAmount(page);
    await page.getByRole('button', { name: /^Pay £/ }).click();
    const card = page.getByLabel('Card number (Stripe)');
    await expect(card).toBeVisible();
    const clientSecret = (await seen(page)).elementsOptions?.clientSecret;
    const intent = (await fakeState(request)).intents.find((i) => i.client_secret === clientSecret)!;
    expect(intent).toMatchObject({ amount, currency: 'gbp', status: 'requires_payment_method' });

    await card.fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay £/ }).click();
    // Stripe.js leaves for the card return, which sends the buyer on to the checkout: paid.
    await expect(page).toHaveURL(/\/checkout\/$/);
    await expectStep(page, 'deliver_tickets');
    await expect(
      page.locator('.delivery__stage').filter({ hasText: 'Delivering your tickets to your ticket wallet' }),
    ).toHaveAttribute('data-status', 'delivered');
    await throughDelivery(page);
    // The questions asked after payment: the optional one left empty, the order's arrival point chosen.
    await expectStep(page, 'ticket_questions_after');
    const questions = page.locator('[data-step="ticket_questions_after"] form');
    await questions.getByRole('button', { name: 'Continue' }).click();
    await questions.getByLabel('Where will you arrive from?').selectOption({ index: 1 });
    await questions.getByRole('button', { name: 'Continue' }).click();
    await expectStep(page, 'order_completed');
    await expect(page.getByText('Order complete! Your tickets are on their way.')).toBeVisible();
    const reference = page.getByText(/^Your reference is HF-[A-Z0-9]+$/);
    await expect(reference).toBeVisible();
    const saleReference = (await reference.textContent())!.replace('Your reference is ', '');

    expect(apiCalls).toEqual(['GET /v1/elements/sessions', `POST /v1/payment_intents/${intent.id}/confirm`]);
    const after = await fakeState(request);
    expect(after.intents.find((i) => i.id === intent.id)).toMatchObject({
      status: 'succeeded',
      amount_received: amount,
    });
    // Stripe's signed payment_intent.succeeded reached the server and was taken; nothing went back.
    expect(after.deliveries.filter((d) => d.intent === intent.id)).toEqual([
      { type: 'payment_intent.succeeded', intent: intent.id, status: 200 },
    ]);
    expect(after.refunds.filter((r) => r.payment_intent === intent.id)).toEqual([]);

    await page.getByRole('link', { name: 'Go to ticket wallet' }).click();
    await expect(page).toHaveURL(/\/account\/wallet\/$/);
    const ticket = page.locator('.wallet-ticket').filter({ hasText: saleReference });
    await expect(ticket).toHaveCount(1);
    await expect(ticket.getByRole('heading', { name: 'Ashcombe Winter Lantern Trail' })).toBeVisible();
    await expect(ticket.getByText('Adult (5pm entry)', { exact: true })).toBeVisible();
  });

  test('Stripe.js that cannot be reached says so', async ({ page }) => {
    await page.route('https://js.stripe.com/**', (route) => route.abort('failed'));
    await toLanternPayment(page);
    await fillBillingAddress(page);
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'There was an error with taking you to Stripe. Please try again.' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: /^Pay £/ })).toBeEnabled();
  });
});

test.describe('with the sandbox processor', () => {
  test('the card goes to the sandbox card page and nothing of Stripe is loaded', async ({ page }) => {
    const loads = watchStripeLoads(page);
    await toLanternPayment(page);
    await fillBillingAddress(page);
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Pay £\d+\.\d\d by card$/ })).toBeVisible();
    expect(loads.map((r) => r.url())).toEqual([]);
  });
});
