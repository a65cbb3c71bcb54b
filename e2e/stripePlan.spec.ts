/**
 * A payment plan with a new card on the server keyed for Stripe: the card is typed into Stripe's
 * form and saved by a SetupIntent the server made for the buyer's Stripe customer (confirmed by
 * Stripe.js), then the plan is set up on that card and its first instalment charged. Nothing here
 * reaches Stripe: the server's SDK talks to the local stand-in (e2e/fakeStripe.ts), and the
 * browser's requests for js.stripe.com and api.stripe.com are routed to it.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { FakeIntent, FakePaymentMethod, FakeSetupIntent } from './fakeStripe.ts';
import { routeStripe, stripeState } from './stripeRoutes.ts';
import { expect, expectStep, newBuyerAt, test, throughDelivery, urls, fillBillingAddress } from './support.ts';

interface FakeState {
  intents: FakeIntent[];
  setupIntents: FakeSetupIntent[];
  paymentMethods: FakePaymentMethod[];
}
const fakeState = (request: APIRequestContext) => stripeState<FakeState>(request);

const setupsSeen = (page: Page) =>
  page.evaluate(
    () =>
      (
        window as unknown as {
          __stripeFake: {
            elementsOptions: { clientSecret?: string } | null;
            setups: { number: string; redirect: string | null }[];
          };
        }
      ).__stripeFake,
  );

async function choosePlan(page: Page) {
  await page.getByRole('radio', { name: 'Set up a payment plan' }).check();
  await page.getByRole('radio', { name: /^3 monthly payments/ }).check();
  await page.getByLabel('Contact number', { exact: true }).fill('07700 900123');
  await page.getByRole('radio', { name: 'A new card' }).check();
}

const payButton = (page: Page) => page.getByRole('button', { name: 'Pay £126.00 today' });

test.describe('with Stripe keyed', () => {
  test.use({ baseURL: urls.stripe });

  test('a plan’s new card is saved by a SetupIntent in Stripe’s form, a declined one says so and can be tried again, and the first instalment is paid on the saved card', async ({
    page,
    request,
  }) => {
    await page.clock.install();
    const apiCalls = await routeStripe(page);
    await newBuyerAt(page, 'Meadowlands Festival', { tickets: { 'Weekend camping ticket': 2 } });
    await fillBillingAddress(page);
    await choosePlan(page);
    // The card is not typed into this page's own fields: Stripe's form takes it when the buyer pays.
    await expect(page.getByText('You type your card into Stripe’s secure form when you pay.')).toBeVisible();
    await expect(page.getByLabel('Card number', { exact: true })).toHaveCount(0);
    await expect(page.getByLabel('Make this card my default payment method')).toBeChecked();

    await payButton(page).click();
    const card = page.getByLabel('Card number (Stripe)');
    await expect(card).toBeVisible();
    // The form is for a SetupIntent the server made at Stripe for the buyer's customer, card only, for later payments.
    const firstSecret = (await setupsSeen(page)).elementsOptions?.clientSecret;
    expect(firstSecret).toMatch(/^seti_/);
    const declined = (await fakeState(request)).setupIntents.find((i) => i.client_secret === firstSecret)!;
    expect(declined).toMatchObject({
      status: 'requires_payment_method',
      usage: 'off_session',
      payment_method_types: ['card'],
      customer: expect.stringMatching(/^cus_/),
    });

    await card.fill('4000 0000 0000 0002');
    await payButton(page).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
    await expect(card).toBeHidden();
    await expectStep(page, 'payment');
    expect((await setupsSeen(page)).setups).toEqual([
      {
        returnUrl: `${urls.stripe}/checkout/`,
        number: '4000000000000002',
        redirect: 'if_required',
        sameElements: true,
      },
    ]);

    // Tried again: a new SetupIntent for the same customer, and this card is saved.
    await fillBillingAddress(page);
    await choosePlan(page);
    await payButton(page).click();
    await expect(card).toBeVisible();
    const secondSecret = (await setupsSeen(page)).elementsOptions?.clientSecret;
    expect(secondSecret).not.toBe(firstSecret);
    await card.fill('4242 4242 4242 4242');
    await payButton(page).click();

    await throughDelivery(page);
    await expectStep(page, 'order_completed');
    await expect(page.getByText('Order Complete - Payment Schedule Setup')).toBeVisible();
    const checkout = await (await page.request.get('/ajax/checkout/checkout/get/')).json();
    expect(checkout.payment_complete).toBe(true);
    expect(checkout.payment_plan_remaining).toBe(25_200);

    const state = await fakeState(request);
    const saved = state.setupIntents.find((i) => i.client_secret === secondSecret)!;
    expect(saved).toMatchObject({
      status: 'succeeded',
      customer: declined.customer,
      payment_method: expect.stringMatching(/^pm_/),
    });
    expect(state.paymentMethods.find((m) => m.id === saved.payment_method)).toMatchObject({
      customer: declined.customer,
      card: { last4: '4242' },
    });
    // The first instalment was charged at Stripe on the card the SetupIntent saved.
    expect(state.intents.filter((i) => i.payment_method === saved.payment_method)).toEqual([
      expect.objectContaining({ amount: 12_600, currency: 'gbp', status: 'succeeded', customer: declined.customer }),
    ]);
    // The browser spoke to Stripe only to show the form and confirm the SetupIntents.
    expect(apiCalls).toEqual([
      'GET /v1/elements/sessions',
      `POST /v1/setup_intents/${declined.id}/confirm`,
      'GET /v1/elements/sessions',
      `POST /v1/setup_intents/${saved.id}/confirm`,
    ]);
    // The card is the buyer's default saved card for the later instalments.
    const cards = await (
      await page.request.post('/ajax/checkout/checkout/get_saved_payment_methods/', { form: {} })
    ).json();
    expect(cards.payment_methods).toEqual([
      {
        payment_method_id: saved.payment_method,
        card_type: 'visa',
        last4digits: '4242',
        expiry: '12/34',
        is_default: true,
      },
    ]);
  });

  test('Stripe.js that cannot be reached for a plan’s new card says so, and sets nothing up', async ({ page }) => {
    await page.route('https://js.stripe.com/**', (route) => route.abort('failed'));
    await newBuyerAt(page, 'Meadowlands Festival', { tickets: { 'Weekend camping ticket': 2 } });
    await fillBillingAddress(page);
    await choosePlan(page);
    await payButton(page).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'There was an error with taking you to Stripe. Please try again.' }),
    ).toBeVisible();
    await expectStep(page, 'payment');
    const checkout = await (await page.request.get('/ajax/checkout/checkout/get/')).json();
    expect(checkout.payment_complete).toBe(false);
  });
});
