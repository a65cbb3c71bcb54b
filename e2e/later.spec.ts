/**
 * What happens later, seen without waiting for it: on the server whose clock the tests move
 * (DEV_CLOCK=1, POST /dev/clock), each test moves the server's time and its page's time on together,
 * so a hold runs out, More time is offered, a payment outlives its hold and a slow bank answers
 * exactly when the test says, however loaded the machine. Holds last the usual ten minutes, so the
 * real seconds a step takes never decide a result.
 *
 * The server's clock is one for all its buyers, so these tests run one after another, and no other
 * file uses that server.
 */
import type { Page } from '@playwright/test';
import {
  addFromEventPage,
  basketLine,
  expect,
  expectStep,
  keepScreenshot,
  pauseClock,
  photograph,
  photographBothWidths,
  reserveButton,
  test,
  throughDelivery,
  newBuyerAt,
  urls,
} from './support.ts';
import { atBank, FIRST_WAIT, payByBank, recordWaitMessages, TEXT, toFolkPayment } from './bank.ts';

test.use({ baseURL: urls.clock });
test.describe.configure({ mode: 'default' });

const EXPIRED = 'Your checkout time expired. If the tickets are still available, you can try to reserve them again.';
const PAYMENT_IN_PROGRESS = 'Payment in progress: your tickets are held until the payment finishes.';
const OFFER = 'Your tickets are held for less than a minute. Choose More time to keep them longer.';

/** Moves time on by `seconds` for the server and for the page together. */
async function later(page: Page, seconds: number): Promise<void> {
  const moved = await page.request.post(`/dev/clock?seconds=${seconds}`);
  expect(moved.status(), await moved.text()).toBe(200);
  await page.clock.fastForward(seconds * 1000);
}

/** Ten minutes from a fresh hold, less the minute in which More time is offered. */
const TO_THE_OFFER = 9 * 60 + 10;

test.beforeEach(async ({ page }) => {
  // The page's clock runs as usual but can be moved on with the server's.
  await page.clock.install();
});

test('a buyer asks for more time twice, sees the new time each time, is refused the third time, and the hold then runs out', async ({
  page,
}, testInfo) => {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await reserveButton(page).click();
  await expectStep(page, 'login');
  const clock = page.getByTestId('countdown-clock');
  const moreTime = page.getByRole('button', { name: 'More time' });
  const spoken = page.locator('.countdown [aria-live="polite"]');
  await expect(clock).toHaveText(/^(9|10):\d\d$/);
  await expect(moreTime).toHaveCount(0);

  for (let round = 1; round <= 2; round++) {
    // Extended holds start an original hold later; the offer comes in the last minute.
    await later(page, round === 1 ? TO_THE_OFFER : 10 * 60);
    await expect(moreTime).toBeVisible();
    await expect(spoken).toHaveText(OFFER);
    await expect(clock).toHaveText(/^0:[0-5]\d$/);
    if (round === 1) await keepScreenshot(page, testInfo, 'more-time-offered');
    await moreTime.click();
    // The same hold, one checkout time further on; the offer goes until the end is near again.
    await expect(clock).toHaveText(/^1[01]:\d\d$/);
    await expect(moreTime).toHaveCount(0);
    // Focus stays in the countdown rather than falling back to the page.
    expect(await page.evaluate(() => document.activeElement?.classList.contains('countdown') ?? false)).toBe(true);
  }

  await later(page, 10 * 60);
  await expect(moreTime).toBeVisible();
  await moreTime.click();
  await expect(page.getByTestId('countdown-refusal')).toHaveText('No more time can be added to this reservation.');
  await expect(spoken).toHaveText('No more time can be added to this reservation.');
  await expect(moreTime).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'more-time-refused');

  // A minute on, the hold has run out: back to the basket, with the spec's words.
  await later(page, 60);
  await expectStep(page, 'basket');
  await expect(page.getByText(EXPIRED)).toBeVisible();
});

test('when the hold runs out the buyer is returned to the basket with the expiry message', async ({ page }) => {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 2 } });
  await reserveButton(page).click();
  await expectStep(page, 'login');
  await expect(page.getByTestId('countdown-clock')).toHaveText(/^(9|10):\d\d$/);
  await later(page, 10 * 60);
  await expectStep(page, 'basket');
  await expect(page.getByText(EXPIRED)).toBeVisible();
  await expect(basketLine(page, '10K entry')).toBeVisible();
  // The server agrees: the sale is back in the basket, held no longer.
  expect(await (await page.request.get('/ajax/checkout/checkout/get/')).json()).toMatchObject({
    state: 'basket',
    seconds_remaining: 0,
  });
});

test('a challenged payment approved after the hold’s deadline completes the order; meanwhile the countdown says the payment is in progress', async ({
  page,
}, testInfo) => {
  await newBuyerAt(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  // More time, taken when offered, moves the deadline the payment then outlives.
  await later(page, TO_THE_OFFER);
  await page.getByRole('button', { name: 'More time' }).click();
  await expect(page.getByTestId('countdown-clock')).toHaveText(/^1[01]:\d\d$/);
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

  // The buyer is on the challenge page when the hold's deadline (moved once by More time) passes,
  // within the payment's grace.
  await later(page, 12 * 60);
  const read = async () => (await page.request.get('/ajax/checkout/checkout/get/')).json();
  expect(await read()).toMatchObject({
    state: 'payment',
    seconds_remaining: 0,
    payment_in_progress: true,
    payment_complete: false,
  });

  // Back on the checkout: the countdown says the payment is in progress, and does not run out.
  await page.goto('/checkout/');
  await expectStep(page, 'payment');
  await expect(page.getByTestId('countdown-paying')).toHaveText(PAYMENT_IN_PROGRESS);
  await expect(page.getByTestId('countdown-clock')).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'payment-in-progress');
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(page.getByTestId('countdown-paying')).toBeVisible();
  await photograph(page, 'test-results/screenshots/phone-payment-in-progress.png');
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
  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  await expect(page.getByText(/^Your reference is HF-[A-Z0-9]+$/)).toBeVisible();
  await expect(page.getByText(EXPIRED)).toHaveCount(0);
  expect(await read()).toMatchObject({ payment_complete: true, payment_in_progress: false });
});

test('approved slowly: the wait messages of 3, 6 and 9 retries come in order, then the payment is received', async ({
  page,
}, testInfo) => {
  const messages = await recordWaitMessages(page);
  await toFolkPayment(page);
  await payByBank(page);
  // The bank answers two minutes after the approval, on the server's clock.
  await atBank(page, 'Approve slowly', 120);
  await expect(page.getByText(TEXT.after9)).toBeVisible({ timeout: 20_000 });
  // From 9 retries the buyer may switch method.
  await expect(page.getByRole('button', { name: TEXT.switch })).toBeVisible();
  // The page's polls stop while the screen is photographed, so the 60th cannot come first.
  await pauseClock(page);
  await photographBothWidths(page, testInfo, 'bank-slow');
  await page.setViewportSize({ width: 1280, height: 800 });
  // Two minutes on, the next poll finds the bank's answer.
  await later(page, 120);
  await expect(page.getByText('Payment received')).toBeVisible();
  expect(await messages()).toEqual([FIRST_WAIT, TEXT.after3, TEXT.after6, TEXT.after9]);
});
