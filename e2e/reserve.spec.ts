import { expect, test } from './support.ts';
import { addFromEventPage, basketLine, expectStep, failCall, holdCalls, reserveButton } from './support.ts';

async function fillBasket(page: import('@playwright/test').Page, base = '') {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 2 } }, base);
}

test('reserving moves on to sign-in with the countdown running', async ({ page }) => {
  await fillBasket(page);
  await reserveButton(page).click();
  await expectStep(page, 'login');
  const countdown = page.getByTestId('countdown-clock');
  await expect(countdown).toHaveText(/^(9|10):\d\d$/);
  const first = await countdown.textContent();
  await expect(countdown).not.toHaveText(first ?? '', { timeout: 5_000 });
  await expect(page.getByTestId('countdown-words')).toContainText('minute');
});

test('the reserve step shows its progress while the server works', async ({ page }) => {
  await fillBasket(page);
  const server = await holdCalls(page, '/reserve_tickets/');
  await reserveButton(page).click();
  await server.arrived();
  await expectStep(page, 'reserve');
  await expect(page.getByText('Reserving tickets')).toBeVisible();
  server.release();
  await expectStep(page, 'login');
});

test('a reserve call that fails returns to the basket with its notification', async ({ page }) => {
  await fillBasket(page);
  await failCall(page, '/reserve_tickets/', 'abort');
  await reserveButton(page).click();
  await expect(page.getByText('Unable to reserve tickets. Please try again later')).toBeVisible();
  await expectStep(page, 'basket');
});

test('a reply with no outcome is an unknown error', async ({ page }) => {
  await fillBasket(page);
  await page.route('**/reserve_tickets/', (route) => route.fulfill({ json: { reserved: false } }));
  await reserveButton(page).click();
  await expect(page.getByText('An unknown error occured. Please try again, or contact support.')).toBeVisible();
  await expectStep(page, 'basket');
});

test('a server reserving error is shown as a warning on the basket', async ({ page }) => {
  await fillBasket(page);
  await page.route('**/reserve_tickets/', (route) =>
    route.fulfill({ json: { reserved: false, error: 'Sorry, 10K entry has just sold out.' } }),
  );
  await reserveButton(page).click();
  await expectStep(page, 'basket');
  await expect(page.getByText('Sorry, 10K entry has just sold out.')).toBeVisible();
  // Once: after the reload it is not repeated as a banner.
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Sorry, 10K entry has just sold out.')).toHaveCount(1);
});

test('a saved step that cannot be stored says so', async ({ page }) => {
  await fillBasket(page);
  await failCall(page, '/update_basket_state/');
  await reserveButton(page).click();
  await expect(page.getByText('Unable to update the Basket state. Please try again later')).toBeVisible();
});

test('Edit basket asks first, then destroys the sale and returns to the basket', async ({ page }) => {
  await fillBasket(page);
  await reserveButton(page).click();
  await expectStep(page, 'login');
  await page.getByRole('button', { name: 'Edit basket' }).click();
  const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /yes|edit/i }).click();
  await expectStep(page, 'basket');
  await expect(basketLine(page, '10K entry')).toBeVisible();
});

test('Edit basket that cannot destroy the sale says so and stays', async ({ page }) => {
  await fillBasket(page);
  await reserveButton(page).click();
  await expectStep(page, 'login');
  await failCall(page, '/destroy_sale/');
  await page.getByRole('button', { name: 'Edit basket' }).click();
  await page
    .getByRole('dialog', { name: 'Are you sure?' })
    .getByRole('button', { name: /yes|edit/i })
    .click();
  await expect(page.getByText('Unable to edit Basket. Please try again later')).toBeVisible();
  await expectStep(page, 'login');
});

test.describe('in an in-app social browser', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 309.0.0.0',
    permissions: ['clipboard-read', 'clipboard-write'],
  });

  test('the reserve step warns, copies the link and explains why', async ({ page }) => {
    await fillBasket(page);
    await reserveButton(page).click();
    await expect(page.getByText('You are using an incompatible browser.')).toBeVisible();
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect(page.getByText('Link copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('/checkout/');
    await expect(page.getByText('Link copied')).toHaveCount(0, { timeout: 5_000 });
    await page.getByRole('button', { name: 'Why am I seeing this?' }).click();
    await expect(page.getByText(/open links in their own built-in browser/)).toBeVisible();
  });
});

test('a sale ended in another tab: back in this tab, the flow follows the server to the basket', async ({
  page,
  context,
}) => {
  await fillBasket(page);
  await reserveButton(page).click();
  await expectStep(page, 'login');
  await expect(page.getByTestId('countdown-clock')).toBeVisible();

  // Tab B, the same buyer: the checkout resumes at sign-in; 'Edit basket' ends the sale.
  const other = await context.newPage();
  await other.goto('/checkout/');
  await expectStep(other, 'login');
  await other.getByRole('button', { name: 'Edit basket' }).first().click();
  await other.getByRole('button', { name: 'Yes, change my basket' }).click();
  await expectStep(other, 'basket');

  // Back to tab A: the tab is visible again and the checkout is read afresh.
  await page.bringToFront();
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expectStep(page, 'basket');
  await expect(page.getByTestId('countdown-clock')).toHaveCount(0);
  await expect(
    page.getByText(
      'Your checkout time expired. If the tickets are still available, you can try to reserve them again.',
    ),
  ).toHaveCount(0);
});
