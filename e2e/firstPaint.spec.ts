import { expect, type Browser, type Page } from '@playwright/test';
import { addFromEventPage, basketLine, basketStep, expectStep, reserveButton, test } from './support.ts';

/** The same visitor (the page's cookies) with scripts switched off: what the page paints on its own. */
async function withoutScripts(browser: Browser, baseURL: string | undefined, from?: Page) {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  if (from) await context.addCookies(await from.context().cookies());
  const page = await context.newPage();
  await page.goto('/checkout/');
  return { page, close: () => context.close() };
}

// The painted basket is inert until the app draws it again (nothing on it works before then), so
// it is read here by its text, as a sighted buyer sees it.
test('with no basket, the page paints the empty basket before any script runs', async ({ browser, baseURL }) => {
  const { page, close } = await withoutScripts(browser, baseURL);
  const painted = basketStep(page);
  await expect(painted).toHaveAttribute('inert', '');
  await expect(painted.locator('h1')).toHaveText('Basket');
  await expect(painted).toContainText('Looking for something to put in your basket?');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeAttached();
  await close();
});

test('a filled basket paints with the page before any script runs: its lines, total and Reserve Basket', async ({ page, browser, baseURL }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  const { page: before, close } = await withoutScripts(browser, baseURL, page);
  const painted = basketStep(before);
  await expect(painted).toHaveAttribute('inert', '');
  await expect(painted.locator('.line__name')).toHaveText(['General admission']);
  await expect(painted.locator('.stepper__input')).toHaveValue('2');
  await expect(painted.locator('.reserve-bar__total')).toContainText('£48.00');
  await expect(painted.locator('.reserve-button')).toContainText('Reserve Basket');
  await close();
});

test('a held sale paints Determining checkout progress until the app knows its step', async ({ page, browser, baseURL }) => {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await reserveButton(page).click();
  await expectStep(page, 'login');
  const painted = await withoutScripts(browser, baseURL, page);
  await expect(painted.page.getByRole('heading', { level: 1, name: 'Determining checkout progress' })).toBeVisible();
  await painted.close();
});

test('the app takes over the painted basket without a Determining flash, and it works', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  // Every heading the page ever shows, from the first byte on.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { headingsSeen: string[] }).headingsSeen = seen;
    new MutationObserver(() => {
      for (const h of document.querySelectorAll('h1')) if (!seen.includes(h.textContent ?? '')) seen.push(h.textContent ?? '');
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.reload();
  // The app's own basket replaces the painted one, and works.
  await expect(basketStep(page)).not.toHaveAttribute('inert', '');
  const stepper = basketStep(page).getByRole('spinbutton', { name: /General admission/ });
  await expect(stepper).toHaveValue('2');
  await basketLine(page, 'General admission').getByRole('button', { name: /One more/ }).click();
  await expect(stepper).toHaveValue('3');
  await expect(page.locator('.reserve-bar__total')).toContainText('£72.00');
  expect(await page.evaluate(() => (window as unknown as { headingsSeen: string[] }).headingsSeen)).toEqual(['Basket']);
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
