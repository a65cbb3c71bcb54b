/**
 * Paying by instant bank transfer through the real app and server with the sandbox bank: approved
 * (tickets delivered), cancelled at the bank, never confirmed (the stop at 60), and each error text
 * from a failing call; approved slowly (the 3/6/9 messages in order) is in later.spec.ts, on the
 * server whose clock the tests move. The main end-to-end server polls every 100 ms
 * (TRUELAYER_POLL_INTERVAL_MS, playwright.config.ts); the chart's rule is unchanged.
 */
import { expect, expectStep, failCall, pauseClock, photographBothWidths, test, throughDelivery } from './support.ts';
import { atBank, NOT_CONFIRMED, payByBank, TEXT, toFolkPayment } from './bank.ts';

test('approved at the bank: the reference and amount, Continue, and the tickets are delivered', async ({
  page,
}, testInfo) => {
  await page.clock.install();
  await toFolkPayment(page);
  // The folk club's provider is not Stripe and the basket is in pounds: both methods, none chosen.
  await expect(page.getByRole('radio', { name: 'Instant Bank Transfer' })).not.toBeChecked();
  await expect(page.getByRole('radio', { name: 'Credit or Debit Card' })).toBeVisible();
  await page.getByRole('radio', { name: 'Instant Bank Transfer' }).check();
  await photographBothWidths(page, testInfo, 'bank-payment');
  await payByBank(page);
  await expect(page).toHaveURL(/\/sandbox\/bank\//);
  await photographBothWidths(page, testInfo, 'sandbox-bank');
  await atBank(page, 'Approve payment');
  await expect(page.getByText('Payment received')).toBeVisible();
  const checkout = await (await page.request.get('/ajax/checkout/checkout/get/')).json();
  await expect(page.getByText(checkout.sale_reference)).toBeVisible();
  await expect(page.locator('.bank-transfer__facts')).toContainText('£15.00');
  await photographBothWidths(page, testInfo, 'bank-success');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'deliver_tickets');
  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  await page.goto('/account/wallet/');
  await expect(page.getByText('Session seat').first()).toBeVisible();
});

test('cancelled at the bank: the flag 0 says so, and another method can be tried', async ({ page }, testInfo) => {
  await toFolkPayment(page);
  await payByBank(page);
  await atBank(page, 'Cancel payment');
  await expect(page.getByRole('alert').filter({ hasText: TEXT.cancelled })).toBeVisible();
  await photographBothWidths(page, testInfo, 'bank-cancelled');
  await page.getByRole('button', { name: TEXT.switch }).click();
  await expectStep(page, 'payment');
  await expect(page.getByRole('radio', { name: 'Credit or Debit Card' })).toBeVisible();
});

test('never confirmed: after 60 retries the polling stops with the not-yet-confirmed message', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  await page.clock.install();
  // Counted in the page as each call is made, so no call can still be on its way when they are read.
  await page.addInitScript(() => {
    const w = window as unknown as { bankPolls: number };
    w.bankPolls = 0;
    const fetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('/get_truelayer_status/')) w.bankPolls++;
      return fetch(input, init);
    };
  });
  const polls = () => page.evaluate(() => (window as unknown as { bankPolls: number }).bankPolls);
  await toFolkPayment(page);
  await payByBank(page);
  await atBank(page, 'Approve slowly', 3600);
  await expect(page.getByText(NOT_CONFIRMED)).toBeVisible({ timeout: 60_000 });
  // A minute more on the page's clock: no poll follows the 60th.
  await pauseClock(page);
  await page.clock.runFor(60_000);
  await photographBothWidths(page, testInfo, 'bank-not-confirmed');
  expect(await polls()).toBe(60);
});

test('a bank payment that cannot be created removes the method; a failed pay_with_truelayer says so', async ({
  page,
}) => {
  await failCall(page, '/ajax/checkout/checkout/create_truelayer_payment/');
  await toFolkPayment(page);
  // Only the card is left, and chosen for the buyer.
  await expect(page.getByRole('radio', { name: 'Instant Bank Transfer' })).toHaveCount(0);
  await expect(page.getByRole('radio', { name: 'Credit or Debit Card' })).toBeChecked();
  await page.unroute('**/ajax/checkout/checkout/create_truelayer_payment/');
  await page.reload();
  await expectStep(page, 'payment');
  await failCall(page, '/ajax/checkout/checkout/pay_with_truelayer/');
  await payByBank(page);
  await expect(page.getByRole('alert').filter({ hasText: TEXT.redirectFailed })).toBeVisible();
  await expect(page).toHaveURL(/\/checkout\/$/);
});

test('a status that cannot be read says so, and can be checked again', async ({ page }) => {
  await toFolkPayment(page);
  await failCall(page, '/ajax/checkout/checkout/get_truelayer_status/');
  await payByBank(page);
  await atBank(page, 'Approve payment');
  await expect(page.getByRole('alert').filter({ hasText: TEXT.unableToGetStatus })).toBeVisible();
  await page.unroute('**/ajax/checkout/checkout/get_truelayer_status/');
  await page.getByRole('button', { name: 'Check again' }).click();
  await expect(page.getByText('Payment received')).toBeVisible();
});

test('an error with no time left returns to the basket with the spec’s message', async ({ page }) => {
  await toFolkPayment(page);
  await page.route('**/ajax/checkout/checkout/get_truelayer_status/', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        truelayer_status: {
          checkout_expires_in: 0,
          payment_completed: false,
          reference: null,
          total: 1500,
          currency: 'GBP',
          truelayer_status_error: 'Gone',
          status: 'error',
        },
      }),
    }),
  );
  await payByBank(page);
  await atBank(page, 'Approve slowly', 3600);
  await expectStep(page, 'basket');
  await expect(page.getByText(TEXT.expired)).toBeVisible();
});
