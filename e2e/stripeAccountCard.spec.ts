/**
 * A plan's card changed in My account on the server keyed for Stripe, in the browser: the plan's
 * card page mounts Stripe's form for a SetupIntent the server made for the buyer's own customer,
 * a declined card says so there and can be tried again, and a card Stripe.js saves comes back to
 * the account, where the plan shows it. Nothing here reaches Stripe: the server's SDK talks to the
 * local stand-in (e2e/fakeStripe.ts), and the browser's requests for js.stripe.com and
 * api.stripe.com are routed to it.
 */
import type { APIRequestContext } from '@playwright/test';
import type { FakeIntent, FakePaymentMethod, FakeSetupIntent } from './fakeStripe.ts';
import { routeStripe, stripeState } from './stripeRoutes.ts';
import { expect, expectStep, fillBillingAddress, newBuyerAt, test, throughDelivery, urls } from './support.ts';

interface FakeState {
  intents: FakeIntent[];
  setupIntents: FakeSetupIntent[];
  paymentMethods: FakePaymentMethod[];
}
const fakeState = (request: APIRequestContext) => stripeState<FakeState>(request);

test.use({ baseURL: urls.stripe });

test('a plan’s card is changed in my account through Stripe’s form, and the plan shows the new card', async ({
  page,
  request,
}) => {
  await page.clock.install();
  const apiCalls = await routeStripe(page);

  // A plan on a card saved through Stripe's form at the checkout.
  await newBuyerAt(page, 'Meadowlands Festival', { tickets: { 'Weekend camping ticket': 2 } });
  await fillBillingAddress(page);
  await page.getByRole('radio', { name: 'Set up a payment plan' }).check();
  await page.getByRole('radio', { name: /^3 monthly payments/ }).check();
  await page.getByLabel('Contact number', { exact: true }).fill('07700 900123');
  await page.getByRole('radio', { name: 'A new card' }).check();
  await page.getByRole('button', { name: 'Pay £126.00 today' }).click();
  await page.getByLabel('Card number (Stripe)').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay £126.00 today' }).click();
  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  const reference = (await (await page.request.get('/ajax/checkout/checkout/get/')).json()).sale_reference as string;

  await page.goto('/account/');
  const plan = page.locator(`#plan-${reference}`);
  await expect(plan).toContainText('visa card ending 4242');
  await plan.getByRole('link', { name: 'Change card' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Change the card for order ${reference}` })).toBeVisible();
  await expect(page.getByText('Now paid with visa card ending 4242.')).toBeVisible();

  // Stripe's form, for a SetupIntent of the buyer's own customer: Save waits for it.
  const card = page.getByLabel('Card number (Stripe)');
  const save = page.getByRole('button', { name: 'Save the new card' });
  await expect(card).toBeVisible();
  await expect(save).toBeEnabled();
  const secret = await page.locator('#card-setup').getAttribute('data-client-secret');
  expect(secret).toMatch(/^seti_/);
  const before = await fakeState(request);
  const setup = before.setupIntents.find((i) => i.client_secret === secret)!;
  const planCard = before.paymentMethods.find((m) => m.card.last4 === '4242' && m.customer === setup.customer);
  expect(setup).toMatchObject({
    status: 'requires_payment_method',
    usage: 'off_session',
    customer: expect.stringMatching(/^cus_/),
  });
  expect(planCard).toBeDefined();

  // A declined card is refused in Stripe's words, on the same page, and can be tried again.
  await card.fill('4000 0000 0000 0002');
  await save.click();
  await expect(page.locator('#card-setup-error')).toHaveText('Your card was declined.');
  await expect(save).toBeEnabled();
  await expect(page).toHaveURL(new RegExp(`/account/plans/${reference}/card/$`));

  await card.fill('5555 5555 5555 4444');
  await save.click();
  await expect(page).toHaveURL(new RegExp(`/account/\\?done=card-changed#plan-${reference}$`));
  await expect(page.getByRole('status')).toHaveText('Your new card will be used for the next payment of this plan.');
  await expect(plan).toContainText('mastercard card ending 4444');
  await expect(plan).not.toContainText('ending 4242');

  // Stripe saved the card to the buyer's customer, on the SetupIntent the page was given.
  const after = await fakeState(request);
  const saved = after.setupIntents.find((i) => i.id === setup.id)!;
  expect(saved).toMatchObject({ status: 'succeeded', payment_method: expect.stringMatching(/^pm_/) });
  expect(after.paymentMethods.find((m) => m.id === saved.payment_method)).toMatchObject({
    customer: setup.customer,
    card: { brand: 'mastercard', last4: '4444' },
  });
  expect(apiCalls.slice(-3)).toEqual([
    'GET /v1/elements/sessions',
    `POST /v1/setup_intents/${setup.id}/confirm`,
    `POST /v1/setup_intents/${setup.id}/confirm`,
  ]);

  // The new card is the buyer's default among the saved cards, and the old one stays with the plan's record.
  const cards = page.locator('#saved').locator('..');
  await expect(cards.getByText(/mastercard ending 4444, expires 12\/34 \(default\)/)).toBeVisible();
});
