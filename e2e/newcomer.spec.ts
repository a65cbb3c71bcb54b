import { expect, test } from './support.ts';
import { addFromEventPage, basketLine, basketStep, keepScreenshot, originOf } from './support.ts';

test('a newcomer goes from all events to a filled basket at /checkout/', async ({ page }, testInfo) => {
  await page.goto('/all-events/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await keepScreenshot(page, testInfo, 'all-events');

  await page.getByRole('link', { name: 'Summer Jazz on the Quay' }).first().click();
  await keepScreenshot(page, testInfo, 'event');
  await addFromEventPage(page, 'Summer Jazz on the Quay', {
    tickets: { 'General admission': 2 },
    vouchers: { 'Riverside Arts gift voucher': 1 },
  });

  const basket = basketStep(page);
  await expect(basket.getByRole('heading', { level: 1, name: 'Basket' })).toBeVisible();
  await expect(basketLine(page, 'General admission')).toBeVisible();
  await expect(basket.getByText('Summer Jazz on the Quay').first()).toBeVisible();
  await expect(basketLine(page, 'Riverside Arts gift voucher')).toBeVisible();
  await expect(basket.getByRole('heading', { name: 'Order summary' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Reserve Basket/ })).toContainText('3');
  await keepScreenshot(page, testInfo, 'basket');
});

test('nothing in the browser reaches another host', { tag: '@anyWidth' }, async ({ page }) => {
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith('data:')) return;
    if (!['127.0.0.1', 'localhost'].includes(new URL(originOf(request.url())).hostname)) foreign.push(request.url());
  });
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await expect(basketLine(page, '10K entry')).toBeVisible();
  expect(foreign).toEqual([]);
});
