/**
 * One buyer, two tabs of the same checkout: once one tab has paid, the other never offers Pay for
 * the paid order. Brought to the front, it follows the server; pressed while stale, Pay moves on
 * to the paid order instead of failing.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { answerLanternQuestions, expect, expectStep, newBuyerAt, test } from './support.ts';

const payButton = (page: Page) => page.getByRole('button', { name: /^Pay £/ });

async function fillBilling(page: Page) {
  await page.getByLabel('Address line 1').fill('4 Mill Lane');
  await page.getByLabel('Town or city').fill('Cirencester');
  await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
}

/** Tab A at the payment step, and tab B opened on the same checkout; then A pays by card. */
async function payInAnotherTab(context: BrowserContext, pageA: Page): Promise<Page> {
  await newBuyerAt(
    pageA,
    'Ashcombe Winter Lantern Trail',
    { tickets: { 'Adult (5pm entry)': 1 } },
    'ticket_questions_before',
  );
  await answerLanternQuestions(pageA);
  await expectStep(pageA, 'payment');
  const pageB = await context.newPage();
  await pageB.goto('/checkout/');
  await expectStep(pageB, 'payment');
  await expect(payButton(pageB)).toBeVisible();

  await pageA.bringToFront();
  await fillBilling(pageA);
  await payButton(pageA).click();
  await expect(pageA).toHaveURL(/\/sandbox\/card\//);
  await pageA.getByLabel('Card number').fill('4242 4242 4242 4242');
  await pageA.getByLabel('Expiry (MM/YY)').fill('12/34');
  await pageA.getByLabel('CVC').fill('123');
  await payButton(pageA).click();
  await expect(pageA).toHaveURL(/\/checkout\/$/);
  await expect(pageA.locator('[data-step="payment"]')).toHaveCount(0);
  return pageB;
}

test('the other tab, brought to the front after a payment, no longer offers Pay', async ({ context, page }) => {
  const pageB = await payInAnotherTab(context, page);
  await pageB.bringToFront();
  await pageB.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(pageB.locator('[data-step="payment"]')).toHaveCount(0);
  await expect(payButton(pageB)).toHaveCount(0);
  const checkout = await (await pageB.request.get('/ajax/checkout/checkout/get/')).json();
  expect(checkout.payment_complete).toBe(true);
});

test('Pay pressed in a stale tab moves on to the paid order instead of failing', async ({ context, page }) => {
  const pageB = await payInAnotherTab(context, page);
  await fillBilling(pageB);
  await payButton(pageB).click();
  await expect(pageB.locator('[data-step="payment"]')).toHaveCount(0);
  await expect(pageB.getByText('Unable to get Stripe token. Please try again later')).toHaveCount(0);
  await expect(pageB).not.toHaveURL(/\/sandbox\/card\//);
});
