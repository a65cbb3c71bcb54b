/**
 * Notifications (spec 001 §9): they go by themselves after 3000 ms by default, while the checkout's
 * own stay until the buyer dismisses them (the checkout host's -1).
 */
import { addFromEventPage, expect, failCall, pauseClock, test } from './support.ts';

const notifications = (page: import('@playwright/test').Page) => page.getByRole('region', { name: 'Notifications' });

test('a notification on the seat page goes by itself after 3000 ms @anyWidth', async ({ page }) => {
  await page.clock.install();
  await page.route('**/do/checkout/add/', (route) =>
    route.fulfill({ status: 400, json: { error: 'Those seats have just gone off sale.' } }),
  );
  await page.goto('/all-events/');
  await page.getByRole('link', { name: 'Twelfth Night at the Harbour Playhouse' }).first().click();
  await page.getByRole('link', { name: /^Choose your seats for/ }).click();
  await page.getByRole('checkbox', { name: /^Stalls, row F, seat 5, / }).click();
  await expect(page.getByRole('checkbox', { name: /^Stalls, row F, seat 5, / })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  // The clock stands still from here, so the notice's time is the page's alone.
  await pauseClock(page);
  await page.getByRole('button', { name: 'Add To Basket!' }).click();
  const notice = notifications(page).getByRole('alert');
  await expect(notice).toHaveText('Those seats have just gone off sale.');
  await page.clock.runFor(2_900);
  await expect(notice).toBeVisible();
  await page.clock.runFor(200);
  await expect(notice).toHaveCount(0);
});

test('the checkout’s own notifications stay until the buyer dismisses them @anyWidth', async ({ page }) => {
  await page.clock.install();
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
  await failCall(page, '/update_refund_protection/');
  await page.locator('[data-step="basket"]').getByRole('radio', { name: /^yes/i }).click();
  const notice = notifications(page).getByText('Unable to update Refund protection. Please try again later');
  await expect(notice).toBeVisible();
  await page.clock.runFor(60_000);
  await expect(notice).toBeVisible();
  await notifications(page)
    .getByRole('alert')
    .filter({ hasText: 'Unable to update Refund protection' })
    .getByRole('button', { name: 'Dismiss notification' })
    .click();
  await expect(notice).toHaveCount(0);
});
