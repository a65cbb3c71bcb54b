/**
 * Paying through the real app and server with the sandbox card processor: a card approved, declined,
 * short of funds and challenged (approved and failed); free tickets claimed; the SaaS block; the
 * contact number an organiser requires; and each error text of the step from a failing call.
 */
import type { Page } from '@playwright/test';
import {
  advanceTo,
  addFromEventPage,
  expect,
  expectStep,
  failCall,
  originOf,
  photographBothWidths,
  reserveButton,
  signInAsNewBuyer,
  test,
  fillBillingAddress,
} from './support.ts';

const CARDS = {
  success: '4242 4242 4242 4242',
  decline: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  challenge: '4000 0000 0000 3220',
};

/** A signed-in buyer with one ticket held, on the payment step. */
async function toPayment(page: Page, event: string, tickets: Record<string, number>, { free = false } = {}) {
  await signInAsNewBuyer(page);
  await addFromEventPage(page, event, { tickets });
  await reserveButton(page).click();
  // A free basket is claimed and passes the payment step by itself, at once.
  await advanceTo(page, 'payment', { orLater: free });
}

const toLanternPayment = (page: Page) => toPayment(page, 'Ashcombe Winter Lantern Trail', { 'Adult (5pm entry)': 1 });

async function payByCard(page: Page, number: string) {
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Pay £\d+\.\d\d by card$/ })).toBeVisible();
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();
}

const paymentError = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

test('a card payment is approved and the flow moves on to delivery', async ({ page }, testInfo) => {
  await toLanternPayment(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment' })).toBeVisible();
  // Only the card is offered (the organiser's provider is Stripe): it is chosen for the buyer.
  await expect(page.getByRole('radio', { name: 'Credit or Debit Card' })).toBeChecked();

  // Billing requires the postcode.
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByText('Please complete your address')).toBeVisible();
  await expect(page.getByText('Type your postcode or zip code')).toBeVisible();
  await fillBillingAddress(page);
  await expect(page.getByText('Type your postcode or zip code')).toBeHidden();
  // An optional contact number must still look like one.
  await page.getByLabel('Contact number (optional)').fill('12ab');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByText('Type a valid phone number')).toBeVisible();
  await page.getByLabel('Contact number (optional)').fill('+44 (0)1285 555 0100');
  await photographBothWidths(page, testInfo, 'payment');

  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/card\//);
  // Starting the payment keeps the hold up to the grace, and the card page says so.
  await expect(
    page.getByText(
      'Payment in progress: your tickets stay held while you pay, for up to 10 minutes past your countdown.',
    ),
  ).toBeVisible();
  // The processor's own checks: Luhn and the expiry date.
  await page.getByLabel('Card number').fill('4242 4242 4242 4241');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card number is incorrect.' })).toBeVisible();
  await page.getByLabel('Card number').fill(CARDS.success);
  await page.getByLabel('Expiry (MM/YY)').fill('01/20');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'expiration date' })).toBeVisible();
  await photographBothWidths(page, testInfo, 'sandbox-card');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();

  await expect(page).toHaveURL(/\/checkout\/$/);
  await expectStep(page, 'deliver_tickets');
  const checkout = await (await page.request.get('/ajax/checkout/checkout/get/')).json();
  expect(checkout.payment_complete).toBe(true);
  // Paid: the basket can no longer be edited.
  await expect(page.getByRole('button', { name: 'Edit basket' })).toHaveCount(0);
});

for (const [name, number, message] of [
  ['declined', CARDS.decline, 'Your card was declined.'],
  ['short of funds', CARDS.insufficientFunds, 'Your card has insufficient funds.'],
] as const) {
  test(`a card ${name} shows the processor's message, and another card can pay`, async ({ page }) => {
    await toLanternPayment(page);
    await fillBillingAddress(page);
    await payByCard(page, number);
    await expectStep(page, 'payment');
    await expect(paymentError(page, message)).toBeVisible();
    // A new attempt: the method is chosen again and the card can be tried once more.
    await fillBillingAddress(page);
    await payByCard(page, CARDS.success);
    await expectStep(page, 'deliver_tickets');
  });
}

test('a card challenge approved pays; failed, it shows the processor’s message', async ({ page }, testInfo) => {
  await toLanternPayment(page);
  await fillBillingAddress(page);
  await payByCard(page, CARDS.challenge);
  await expect(page.getByRole('heading', { level: 1, name: 'Security check' })).toBeVisible();
  await photographBothWidths(page, testInfo, 'challenge');
  await page.getByRole('button', { name: 'Fail the check' }).click();
  await expectStep(page, 'payment');
  await expect(paymentError(page, 'We are unable to authenticate your payment method.')).toBeVisible();

  await fillBillingAddress(page);
  await payByCard(page, CARDS.challenge);
  await page.getByRole('button', { name: 'Approve payment' }).click();
  await expectStep(page, 'deliver_tickets');
});

test('free tickets are claimed and the flow moves on by itself', async ({ page }) => {
  const claims: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/claim_free_tickets/')) claims.push(request.url());
  });
  await toPayment(page, 'Community Open Day', { 'Free entry': 2 }, { free: true });
  await expectStep(page, 'deliver_tickets');
  expect(claims).toHaveLength(1);
  const checkout = await (await page.request.get('/ajax/checkout/checkout/get/')).json();
  expect(checkout.payment_complete).toBe(true);
  expect(checkout.basket_total).toBe(0);
});

test('a failed claim says so and can be tried again', async ({ page }) => {
  await failCall(page, '/ajax/checkout/checkout/claim_free_tickets/');
  await toPayment(page, 'Community Open Day', { 'Free entry': 1 }, { free: true });
  await expect(page.getByRole('heading', { level: 1, name: 'Claiming free tickets' })).toBeVisible();
  await expect(paymentError(page, 'Unable to claim free tickets. Please try again later')).toBeVisible();
  await page.unroute('**/ajax/checkout/checkout/claim_free_tickets/');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expectStep(page, 'deliver_tickets');
});

test('a SaaS organiser without a payment provider blocks payment', async ({ page }, testInfo) => {
  await toPayment(page, 'Open-Air Cinema: Jaws', { 'Blanket spot': 1 });
  await expect(
    page.getByText(
      'We currently are unable to take payments for this basket as the payment integration has not yet been configured by Moonlight Screenings',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
  await photographBothWidths(page, testInfo, 'saas-block');
});

test('an organiser that requires a contact number gets one before paying', async ({ page }) => {
  await toPayment(page, 'Castleton Trail Run', { '10K entry': 1 });
  await expect(page.getByLabel('Contact number', { exact: true })).toBeVisible();
  await fillBillingAddress(page);
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByText('Type a valid phone number')).toBeVisible();
  await page.getByLabel('Contact number', { exact: true }).fill('07700 900123');
  await payByCard(page, CARDS.success);
  await expectStep(page, 'deliver_tickets');
});

test('each failing call of the step shows the spec’s words', async ({ page }) => {
  await toLanternPayment(page);
  await fillBillingAddress(page);

  await failCall(page, '/ajax/checkout/checkout/set_billing_address/');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(paymentError(page, 'We were unable to find your address. Please try a different address')).toBeVisible();
  await page.unroute('**/ajax/checkout/checkout/set_billing_address/');

  await failCall(page, '/ajax/checkout/stripe/get_token/');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(paymentError(page, 'Unable to get Stripe token. Please try again later')).toBeVisible();
  await page.unroute('**/ajax/checkout/stripe/get_token/');

  // A token of no processor the app can take the buyer to a card form with.
  await page.route('**/ajax/checkout/stripe/get_token/', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ public_key: 'pk_unknown', client_secret: 'pi_x_secret_y' }),
    }),
  );
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(paymentError(page, 'There was an error with taking you to Stripe. Please try again.')).toBeVisible();
  await page.unroute('**/ajax/checkout/stripe/get_token/');

  // The server's own refusal of the address.
  await page.getByLabel('Postcode or zip code').fill('ZZZZ');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(paymentError(page, 'We were unable to find your address. Please try a different address')).toBeVisible();

  // A failure body with an error: back to the basket, where it is shown.
  await page.route('**/ajax/checkout/checkout/set_billing_address/', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({
        error: 'Your tickets are no longer held for you. Please reserve them again.',
        type: 'reserving',
      }),
    }),
  );
  await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expectStep(page, 'basket');
  await expect(page.getByText('Your tickets are no longer held for you. Please reserve them again.')).toBeVisible();
});

test('a payment error the server reports is shown on the step', async ({ page }) => {
  await page.route('**/ajax/checkout/checkout/get_payment_error/', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ payment_error: 'Your card was declined.' }),
    }),
  );
  await toLanternPayment(page);
  await expect(paymentError(page, 'Your card was declined.')).toBeVisible();
});

test('express checkout: a guest gives name and e-mail on the payment step and pays', async ({ page }, testInfo) => {
  await addFromEventPage(page, 'Docklands Street Food Weekend', { tickets: { 'Day pass': 1 } });
  await reserveButton(page).click();
  // No sign-in step: the guest's details are asked for here.
  await expectStep(page, 'payment');
  await expect(page.getByRole('heading', { level: 1, name: 'Complete purchase' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Send me the community newsletter' })).toBeVisible();

  await page.getByLabel('Full name').fill('Ann');
  await page.getByLabel('Email').fill('ann@');
  await page.getByRole('button', { name: /^Pay €/ }).click();
  await expect(page.getByText('Type both your first and last name(s)')).toBeVisible();
  await expect(page.getByText('Type a valid email address')).toBeVisible();
  await page.getByLabel('Full name').fill('Ann Lee');
  // An address of this test's own: the guest has no account yet, however often the test runs.
  await page
    .getByLabel('Email')
    .fill(`ann.lee-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`);
  await expect(page.getByText('Type a valid email address')).toBeHidden();
  await page.getByRole('checkbox', { name: 'Send me the community newsletter' }).check();
  await photographBothWidths(page, testInfo, 'express');

  await failCall(page, '/ajax/checkout/checkout/set_account_details/');
  await page.getByRole('button', { name: /^Pay €/ }).click();
  await expect(paymentError(page, 'Unable to pay. Please try again later')).toBeVisible();
  await page.unroute('**/ajax/checkout/checkout/set_account_details/');

  await page.getByRole('button', { name: /^Pay €/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/card\//);
  await page.getByLabel('Card number').fill(CARDS.success);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay €/ }).click();
  await expectStep(page, 'deliver_tickets');
});

test('the payment screen is its own chunk, loaded on the payment step only, and no provider script comes from elsewhere', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await signInAsNewBuyer(page);
  await addFromEventPage(page, 'Ashcombe Winter Lantern Trail', { tickets: { 'Adult (5pm entry)': 1 } });
  await expect(page.locator('[data-step="basket"]')).toBeVisible();
  expect(scripts.filter((url) => url.includes('PaymentStep'))).toEqual([]);
  await reserveButton(page).click();
  await advanceTo(page, 'payment');
  expect(scripts.filter((url) => url.includes('PaymentStep'))).toHaveLength(1);
  const origin = new URL(page.url()).origin;
  expect(scripts.filter((url) => originOf(url) !== origin)).toEqual([]);
});
