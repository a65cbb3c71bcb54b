/**
 * The machines for QA in demo mode: every machine's file for the Stately editor at
 * /dev/statecharts/, 'Copy for Stately' on the checkout copying the root with every child, and
 * `?inspect` opening the Stately inspector on the checkout and on the seat page.
 */
import { expect, test } from './support.ts';

test('/dev/statecharts/ lists every machine as the Stately editor imports it, each file served as it is', async ({
  page,
}) => {
  await page.goto('/dev/statecharts/');
  await expect(page.getByRole('heading', { level: 1, name: 'Statecharts' })).toBeVisible();
  for (const name of [
    'all.stately.ts',
    'checkout.stately.ts',
    'payment.stately.ts',
    'orderCompleted.stately.ts',
    'seatSelection.stately.ts',
  ]) {
    await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await page.getByRole('link', { name: 'checkout.stately.ts', exact: true }).click();
  await expect(page.locator('body')).toContainText('export const checkoutMachine = createMachine(');
  const missing = await page.request.get('/dev/statecharts/..%2Fpackage.json');
  expect(missing.status()).toBe(404);
});

test('in demo mode the checkout copies every machine for Stately: the root and each child', async ({
  page,
  context,
  browserName,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/checkout/?inspect');
  await page.getByRole('button', { name: 'Copy for Stately' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  for (const machine of ['checkout', 'basket', 'payment', 'delivery', 'orderCompleted', 'transfers']) {
    expect(copied, `${browserName}: ${machine}`).toContain(`export const ${machine}Machine = createMachine(`);
  }
});

test('?inspect in demo mode opens the Stately inspector for the checkout and for the seat page', async ({
  page,
  context,
}) => {
  // The inspector opens Stately's page in a window of its own: its request is what shows it opened.
  const inspector = () =>
    context.waitForEvent('request', { predicate: (request) => request.url().includes('stately.ai'), timeout: 20_000 });
  const checkoutInspector = inspector();
  await page.goto('/checkout/?inspect');
  await checkoutInspector;
  await page.goto('/all-events/');
  await page.getByRole('link', { name: 'Twelfth Night at the Harbour Playhouse' }).first().click();
  const seatsUrl = await page.getByRole('link', { name: /^Choose your seats for/ }).getAttribute('href');
  const seatInspector = inspector();
  await page.goto(`${seatsUrl}?inspect`);
  await seatInspector;
});

test("without ?inspect no inspector is opened and the header is the buyer's", async ({ page }) => {
  let opened = false;
  page.on('popup', () => (opened = true));
  await page.goto('/checkout/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy for Stately' })).toHaveCount(0);
  expect(opened).toBe(false);
});
