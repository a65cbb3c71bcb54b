/**
 * Payment in progress, on the server whose holds last 8 seconds: a card payment started in time
 * keeps the hold past its deadline (up to the grace). Back on the checkout the countdown says so
 * instead of running out, and the challenged payment approved after the deadline completes the order.
 */
import { addFromEventPage, expect, expectStep, keepScreenshot, pauseClock, reserveButton, test, urls } from './support.ts';

const PAYMENT_IN_PROGRESS = 'Payment in progress: your tickets are held until the payment finishes.';
const EXPIRED = 'Your checkout time expired. If the tickets are still available, you can try to reserve them again.';

test('a challenged payment approved after the hold’s deadline completes the order; meanwhile the countdown says the payment is in progress', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  await page.clock.install();
  await page.goto(`${urls.expiry}/signin/`);
  await page.getByRole('button', { name: 'Continue as Tom Okafor' }).click();
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } }, urls.expiry);
  await reserveButton(page).click();
  await expectStep(page, 'login');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'marketing_preferences');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'payment');
  // Time to type the billing address and the card: 'More time' is taken when offered (at half the hold).
  const moreTime = page.getByRole('button', { name: 'More time' });
  await moreTime.click({ timeout: 12_000 });
  await expect(page.getByTestId('countdown-clock')).toHaveText(/^0:1[0-2]$/);
  await page.getByLabel('First name').fill('Tom');
  await page.getByLabel('Last name').fill('Okafor');
  await page.getByLabel('Address line 1').fill('4 Mill Lane');
  await page.getByLabel('Town or city').fill('Cirencester');
  await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
  // The trail run's organiser asks for a contact number.
  await page.getByLabel('Contact number', { exact: true }).fill('+44 1285 555 0100');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/card\//);
  await page.getByLabel('Card number').fill('4000 0000 0000 3220');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Security check' })).toBeVisible();
  const challenge = page.url();

  // The buyer waits on the challenge page until the hold's own deadline (moved once by More time)
  // has passed on the server, however fast the details were typed.
  const read = async () => (await page.request.get(`${urls.expiry}/ajax/checkout/checkout/get/`)).json();
  await expect.poll(async () => (await read()).seconds_remaining, { timeout: 30_000 }).toBe(0);
  expect(await read()).toMatchObject({ state: 'payment', seconds_remaining: 0, payment_in_progress: true, payment_complete: false });

  // Back on the checkout: the countdown says the payment is in progress, and does not run out.
  await page.goto(`${urls.expiry}/checkout/`);
  await expectStep(page, 'payment');
  await expect(page.getByTestId('countdown-paying')).toHaveText(PAYMENT_IN_PROGRESS);
  await expect(page.getByTestId('countdown-clock')).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'payment-in-progress');
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(page.getByTestId('countdown-paying')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/phone-payment-in-progress.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  // Time passes on the page: the countdown keeps saying so, and nothing runs out.
  await pauseClock(page);
  await page.clock.runFor(3_000);
  await expect(page.getByTestId('countdown-paying')).toHaveText(PAYMENT_IN_PROGRESS);
  await expectStep(page, 'payment');
  await expect(page.getByText(EXPIRED)).toHaveCount(0);

  // The challenge approved after the deadline: the order completes rather than going back to the basket.
  await page.clock.resume();
  await page.goto(challenge);
  await page.getByRole('button', { name: 'Approve payment' }).click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expectStep(page, 'order_completed');
  await expect(page.getByText(/^Your reference is HF-[A-Z0-9]+$/)).toBeVisible();
  await expect(page.getByText(EXPIRED)).toHaveCount(0);
  const paid = await (await page.request.get(`${urls.expiry}/ajax/checkout/checkout/get/`)).json();
  expect(paid).toMatchObject({ payment_complete: true, payment_in_progress: false });
});
