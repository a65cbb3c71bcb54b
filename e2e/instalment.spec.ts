/**
 * Paying by instalments through the real app and server with the sandbox processor: a plan set up
 * with a new card (Pay enabled only with an option, a valid phone and a card), its first
 * instalment taken, the order completed as a payment schedule, and the second instalment charged
 * by the job run as of a later date (the development endpoint); a card whose bank must confirm
 * (redirect_to_url to the sandbox bank's page); then each error text from a failing call.
 */
import type { Page } from '@playwright/test';
import {
  expect,
  expectStep,
  failCall,
  photographBothWidths,
  test,
  throughDelivery,
  newBuyerAt,
  fillBillingAddress,
} from './support.ts';

const PLAN_ERROR = 'There was an error with your payment. Please try again.';

/** A new buyer with two camping tickets held, on the payment step; the buyer's e-mail. */
async function toPlanPayment(page: Page): Promise<string> {
  return newBuyerAt(page, 'Meadowlands Festival', { tickets: { 'Weekend camping ticket': 2 } });
}

async function choosePlan(page: Page, card = '4242 4242 4242 4242') {
  await page.getByRole('radio', { name: 'Set up a payment plan' }).check();
  await page.getByRole('radio', { name: /^3 monthly payments/ }).check();
  await page.getByLabel('Contact number', { exact: true }).fill('07700 900123');
  await page.getByRole('radio', { name: 'A new card' }).check();
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
}

const payButton = (page: Page) => page.getByRole('button', { name: /^Pay £/ });

test('a plan is set up, its first instalment taken, and the job charges the later ones on their dates; the tickets come with the last', async ({
  page,
}, testInfo) => {
  await page.clock.install();
  const buyer = await toPlanPayment(page);
  // A plan is on offer beside the card: nothing is chosen for the buyer (spec 001 §4).
  await expect(page.getByRole('radio', { name: 'Set up a payment plan' })).not.toBeChecked();
  await fillBillingAddress(page);
  await page.getByRole('radio', { name: 'Set up a payment plan' }).check();
  // Options except '1', each with its schedule: £378 in three payments of £126.
  await expect(page.getByRole('radio', { name: /^Pay in full/ })).toHaveCount(0);
  await expect(page.getByRole('radio', { name: /^2 monthly payments/ })).toBeVisible();
  const three = page.getByRole('list', { name: '3 monthly payments: schedule' });
  await expect(three.getByRole('listitem')).toHaveCount(3);
  await expect(three).toContainText('£126.00');
  // Pay is enabled only with an option, a valid phone and a card (spec 001 §5).
  await expect(payButton(page)).toBeDisabled();
  await page.getByRole('radio', { name: /^3 monthly payments/ }).check();
  await expect(payButton(page)).toBeDisabled();
  await page.getByLabel('Contact number', { exact: true }).fill('0770');
  await page.getByRole('radio', { name: 'A new card' }).check();
  await expect(payButton(page)).toBeDisabled();
  await page.getByLabel('Contact number', { exact: true }).fill('07700 900123');
  await expect(payButton(page)).toBeEnabled();
  // The first of the three instalments is taken today.
  await expect(payButton(page)).toHaveText('Pay £126.00 today');
  // The new card is the default unless the buyer says otherwise (spec 001 §9).
  await expect(page.getByLabel('Make this card my default payment method')).toBeChecked();
  // The sandbox's own check of the card.
  await page.getByLabel('Card number').fill('4242 4242 4242 4241');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await payButton(page).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card number is incorrect.' })).toBeVisible();
  await choosePlan(page);
  await photographBothWidths(page, testInfo, 'plan');
  await payButton(page).click();

  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  await expect(page.getByText('Order Complete - Payment Schedule Setup')).toBeVisible();
  for (const point of [
    'We have sent you an e-mail with your payment schedule.',
    'We will send you an SMS and an e-mail reminder before each payment is taken.',
    'You can update your payment method at any time in your account settings.',
    'Your tickets will be delivered to your ticket wallet after the final payment.',
  ]) {
    await expect(page.getByRole('listitem').filter({ hasText: point })).toBeVisible();
  }
  await photographBothWidths(page, testInfo, 'plan-completed');
  const checkout = await (await page.request.get('/ajax/checkout/checkout/get/')).json();
  expect(checkout.payment_complete).toBe(true);
  expect(checkout.payment_plan_remaining).toBe(25_200);

  await page.goto(`/dev/mailbox?to=${encodeURIComponent(buyer)}`);
  await expect(
    page.getByRole('heading', { name: new RegExp(`^Your payment schedule for order ${checkout.sale_reference}$`) }),
  ).toBeVisible();

  // The job, run as of 31 days later, takes the second instalment off-session.
  const later = new Date(Date.now() + 31 * 86_400_000).toISOString();
  const run = await page.request.post(`/dev/instalments/run?as_of=${encodeURIComponent(later)}`);
  expect(run.status()).toBe(200);
  expect((await run.json()).charged).toBeGreaterThanOrEqual(1);
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(buyer)}`);
  await expect(
    page.getByRole('heading', { name: `Instalment 2 paid for order ${checkout.sale_reference}` }),
  ).toBeVisible();
  await expect(
    page.getByRole('heading', { name: new RegExp(`^Reminder: instalment 2 for order ${checkout.sale_reference}`) }),
  ).toBeVisible();
  // The SMS reminder the plan promised, to the contact number given at payment, in the mailbox.
  await page.goto(`/dev/mailbox?to=${encodeURIComponent('07700 900123')}`);
  const text = page.locator('.mail[data-channel="sms"]').filter({ hasText: `for order ${checkout.sale_reference} ` });
  await expect(text.getByRole('heading', { name: 'Text message to +447700900123' })).toBeVisible();
  await expect(text).toContainText(
    `instalment 2 of £126.00 for order ${checkout.sale_reference} will be taken from your saved card on`,
  );
  const after = await (await page.request.get('/ajax/checkout/checkout/get/')).json();
  expect(after.payment_plan_remaining).toBe(12_600);
  // £252 of £378 paid: the tickets come with the final payment, not before.
  await page.goto('/account/wallet/');
  await expect(page.getByText('You have no tickets yet.')).toBeVisible();

  // The job, run as of the third instalment's date, takes it: the plan is paid and the tickets are in the wallet.
  const last = new Date(Date.now() + 62 * 86_400_000).toISOString();
  const final = await page.request.post(`/dev/instalments/run?as_of=${encodeURIComponent(last)}`);
  expect(final.status()).toBe(200);
  expect((await (await page.request.get('/ajax/checkout/checkout/get/')).json()).payment_plan_remaining).toBe(0);
  await page.goto('/account/wallet/');
  await expect(page.getByText('Meadowlands Festival').first()).toBeVisible();
});

test('a plan refused by the server, or failing, shows the spec’s error; redirect_to_url takes the browser there', async ({
  page,
}) => {
  await toPlanPayment(page);
  await fillBillingAddress(page);
  await choosePlan(page);
  await page.route('**/ajax/checkout/checkout/pay_with_instalment/', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ status: 'unsuccessful', url: null }),
    }),
  );
  await payButton(page).click();
  await expect(page.getByRole('alert').filter({ hasText: PLAN_ERROR })).toBeVisible();
  await expectStep(page, 'payment');

  await page.unroute('**/ajax/checkout/checkout/pay_with_instalment/');
  await failCall(page, '/ajax/checkout/checkout/pay_with_instalment/');
  await fillBillingAddress(page);
  await choosePlan(page);
  await payButton(page).click();
  await expect(page.getByRole('alert').filter({ hasText: PLAN_ERROR })).toBeVisible();

  await page.unroute('**/ajax/checkout/checkout/pay_with_instalment/');
  await page.route('**/ajax/checkout/checkout/pay_with_instalment/', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ status: 'redirect_to_url', url: '/sandbox/bank-authentication/' }),
    }),
  );
  await page.route('**/sandbox/bank-authentication/', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Your bank</h1>' }),
  );
  await fillBillingAddress(page);
  await choosePlan(page);
  await payButton(page).click();
  await expect(page).toHaveURL(/\/sandbox\/bank-authentication\/$/);
});

test('a card whose bank must confirm: redirect_to_url takes the buyer to the bank; failed, the step shows the error; approved, the plan is set up', async ({
  page,
}) => {
  await page.clock.install();
  await toPlanPayment(page);
  await fillBillingAddress(page);
  await choosePlan(page, '4000 0000 0000 3220');
  await payButton(page).click();
  await expect(page).toHaveURL(/\/sandbox\/plan\/authenticate\/$/);
  await expect(
    page.getByText('Your bank asks you to confirm the first instalment of your payment plan: £126.00 today'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Fail the check' }).click();
  await expectStep(page, 'payment');
  await expect(page.getByRole('alert').filter({ hasText: PLAN_ERROR })).toBeVisible();

  await fillBillingAddress(page);
  await choosePlan(page, '4000 0000 0000 3220');
  await payButton(page).click();
  await page.getByRole('button', { name: 'Approve payment' }).click();
  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  await expect(page.getByText('Order Complete - Payment Schedule Setup')).toBeVisible();
});

test('a declined card sets nothing up and says so', async ({ page }) => {
  await toPlanPayment(page);
  await fillBillingAddress(page);
  await choosePlan(page, '4000 0000 0000 0002');
  await payButton(page).click();
  await expect(page.getByRole('alert').filter({ hasText: PLAN_ERROR })).toBeVisible();
  const checkout = await (await page.request.get('/ajax/checkout/checkout/get/')).json();
  expect(checkout.payment_complete).toBe(false);
});
