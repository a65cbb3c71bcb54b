/**
 * My account on a phone: a plan buyer whose second instalment is refused follows the e-mail's
 * account-settings link, gives a new card in their account, and the next charge takes it; another
 * buyer signs a second browser out from their account and stays signed in. Each new page is
 * scanned by axe and its targets measured.
 */
import type { Page } from '@playwright/test';
import { expectNoAxeViolations, expectTargetSizes } from './a11y.ts';
import { codeFromMailbox, expect, expectStep, fillBillingAddress, newAccount, newBuyerAt, photograph, test, throughDelivery } from './support.ts';

const payButton = (page: Page) => page.getByRole('button', { name: /^Pay £/ });
const DAY = 86_400_000;

async function runJob(page: Page, daysLater: number) {
  const asOf = new Date(Date.now() + daysLater * DAY).toISOString();
  const run = await page.request.post(`/dev/instalments/run?as_of=${encodeURIComponent(asOf)}`);
  expect(run.status()).toBe(200);
  return (await run.json()) as { charged: number; retrying: number; failed: number };
}

test('a refused instalment: the e-mail’s link, a new card in my account, and the next charge succeeds', async ({ page }) => {
  await page.clock.install();
  const buyer = await newBuyerAt(page, 'Meadowlands Festival', { tickets: { 'Weekend camping ticket': 1 } });
  await fillBillingAddress(page);
  await page.getByRole('radio', { name: 'Set up a payment plan' }).check();
  await page.getByRole('radio', { name: /^2 monthly payments/ }).check();
  await page.getByLabel('Contact number', { exact: true }).fill('07700 900123');
  await page.getByRole('radio', { name: 'A new card' }).check();
  // Approved today, refused when charged later.
  await page.getByLabel('Card number').fill('4000 0000 0000 0341');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await payButton(page).click();
  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  const reference = (await (await page.request.get('/ajax/checkout/checkout/get/')).json()).sale_reference as string;
  // The order's own words lead to the plan's card page.
  await expect(page.getByRole('link', { name: 'account settings' })).toHaveAttribute('href', `/account/plans/${reference}/card/`);

  // A month later the second instalment is refused, and the buyer is told.
  expect(await runJob(page, 31)).toMatchObject({ retrying: 1 });
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(buyer)}`);
  const refused = page.locator('.mail').filter({ has: page.getByRole('heading', { name: `We could not take instalment 2 for order ${reference}` }) });
  const body = (await refused.locator('.mail__body').textContent()) ?? '';
  const link = /https?:\/\/\S+\/account\/plans\/[^/\s]+\/card\//.exec(body)?.[0];
  expect(link).toBeDefined();

  await page.goto(link!);
  await expect(page.getByRole('heading', { level: 1, name: `Change the card for order ${reference}` })).toBeVisible();
  await expectNoAxeViolations(page, 'the plan’s card page');
  await expectTargetSizes(page, 'the plan’s card page');
  await photograph(page, 'docs/screenshots/phone-account-card.png', { fullPage: true });
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Save the new card' }).click();

  await expect(page).toHaveURL(/\/account\/\?done=card-changed#plan-/);
  await expect(page.getByRole('status')).toHaveText('Your new card will be used for the next payment of this plan.');
  const plan = page.locator(`#plan-${reference}`);
  await expect(plan).toContainText('visa card ending 4242');
  // Nothing scrolls sideways on the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, 'my account');
  await expectTargetSizes(page, 'my account');
  await photograph(page, 'docs/screenshots/phone-account.png', { fullPage: true });

  // The next run takes the payment from the new card: the plan is paid in full.
  expect(await runJob(page, 31)).toMatchObject({ charged: 1 });
  await page.reload();
  await expect(plan).toContainText('Paid in full');
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(buyer)}`);
  await expect(page.getByRole('heading', { name: `Final instalment paid for order ${reference}: your tickets are in your wallet` })).toBeVisible();

  // The order's receipt.
  await page.goto('/account/');
  await page.getByRole('link', { name: `Receipt for ${reference}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Receipt for order ${reference}` })).toBeVisible();
  await expect(page.getByRole('row', { name: /Total/ })).toContainText('£189.00');
  await expectNoAxeViolations(page, 'a receipt');

  // The tickets, now paid for, go into the phone's wallet.
  await page.getByRole('link', { name: 'Tickets' }).click();
  const ticket = page.locator('.wallet-ticket').first();
  const code = (await ticket.getAttribute('data-code'))!;
  await expectNoAxeViolations(page, 'the wallet with its pass buttons');
  await expectTargetSizes(page, 'the wallet with its pass buttons');
  await photograph(page, 'docs/screenshots/phone-wallet-passes.png', { fullPage: true });
  const pass = await page.request.get((await ticket.getByRole('link', { name: /^Add to Apple Wallet/ }).getAttribute('href'))!);
  expect(pass.headers()['content-type']).toBe('application/vnd.apple.pkpass');
  await ticket.getByRole('link', { name: /^Save to Google Wallet/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Saved to Google Wallet (demo stand-in)' })).toBeVisible();
  await expect(page.getByText(code, { exact: true })).toBeVisible();
  await expectNoAxeViolations(page, 'the Google Wallet stand-in');
});

test('a buyer signs a second browser out from their account and stays signed in here', async ({ page, browser, baseURL }) => {
  const email = await newAccount('Other Devices');
  const otherContext = await browser.newContext({ baseURL });
  const other = await otherContext.newPage();
  try {
    for (const p of [page, other]) {
      await p.goto('/account/');
      await p.locator('#main').getByRole('link', { name: 'Sign in' }).click();
      await p.getByLabel('Email address').fill(email);
      await p.getByRole('button', { name: 'Send code', exact: true }).click();
      await p.getByLabel('One-time code').fill(await codeFromMailbox(p.context(), email));
      await p.getByRole('button', { name: 'Verify', exact: true }).click();
      await expect(p).toHaveURL(/\/account\/$/);
      await expect(p.getByText(`Other Devices (${email})`)).toBeVisible();
    }
    await page.getByRole('button', { name: 'Sign out of every other device' }).click();
    await expect(page.getByRole('status')).toHaveText('Every other device is signed out. This one stays signed in.');
    await page.reload();
    await expect(page.getByText(`Other Devices (${email})`)).toBeVisible();

    await other.reload();
    await expect(other.getByText('Sign in to see your orders, payment plans and settings.')).toBeVisible();
    await expect(other.getByText(email)).toHaveCount(0);
  } finally {
    await otherContext.close();
  }
});
