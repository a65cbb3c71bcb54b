/**
 * One buyer, two tabs of the same checkout, and a card payment started in one of them: the other
 * tab, on its next read of the checkout, says the payment is in progress, as a reload would.
 */
import { answerLanternQuestions, expect, expectStep, fillBillingAddress, newBuyerAt, test } from './support.ts';

const PAYMENT_IN_PROGRESS = 'Payment in progress: your tickets are held until the payment finishes.';

test('the other tab learns on its next read that a payment is in progress', async ({ context, page }) => {
  await newBuyerAt(
    page,
    'Ashcombe Winter Lantern Trail',
    { tickets: { 'Adult (5pm entry)': 1 } },
    'ticket_questions_before',
  );
  await answerLanternQuestions(page);
  await expectStep(page, 'payment');
  const other = await context.newPage();
  await other.goto('/checkout/');
  await expectStep(other, 'payment');
  await expect(other.getByText(PAYMENT_IN_PROGRESS)).toHaveCount(0);

  await page.bringToFront();
  await fillBillingAddress(page);
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/card\//);

  // The other tab comes back into view: it reads the checkout afresh.
  await other.bringToFront();
  await other.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(other.getByText(PAYMENT_IN_PROGRESS)).toBeVisible();
});
