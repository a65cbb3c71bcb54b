import { expect } from '@playwright/test';
import { addFromEventPage, basketStep, test } from './support.ts';

test('the checkout paints its first screen before any script runs', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto('/checkout/');
  await expect(page.getByRole('heading', { level: 1, name: 'Determining checkout progress' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeAttached();
  await context.close();
});

test('a filled basket shows with the page, without asking the server for the checkout again', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  const reads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/ajax/checkout/checkout/get/') || request.url().includes('/ajax/user/user/get_user/')) reads.push(request.url());
  });
  await page.reload();
  await expect(basketStep(page).getByRole('spinbutton', { name: /General admission/ })).toHaveValue('2');
  expect(reads).toEqual([]);
});
