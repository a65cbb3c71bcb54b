/**
 * My account on a phone: a plan buyer whose second instalment is refused follows the e-mail's
 * account-settings link, gives a new card in their account, and the next charge takes it; another
 * buyer signs a second browser out from their account and stays signed in; a saved address made
 * the default there is where the next checkout's address step starts. Each new page is scanned by
 * axe and its targets measured.
 */
import type { Page } from '@playwright/test';
import { expectNoAxeViolations, expectTargetSizes } from './a11y.ts';
import {
  addFromEventPage,
  advanceTo,
  codeFromMailbox,
  expect,
  expectStep,
  fillBillingAddress,
  newAccount,
  newBuyerAt,
  photograph,
  reserveButton,
  test,
  throughDelivery,
} from './support.ts';

const payButton = (page: Page) => page.getByRole('button', { name: /^Pay £/ });
const DAY = 86_400_000;

async function runJob(page: Page, daysLater: number) {
  const asOf = new Date(Date.now() + daysLater * DAY).toISOString();
  const run = await page.request.post(`/dev/instalments/run?as_of=${encodeURIComponent(asOf)}`);
  expect(run.status()).toBe(200);
  return (await run.json()) as { charged: number; retrying: number; failed: number };
}

test('a refused instalment: the e-mail’s link, a new card in my account, and the next charge succeeds', async ({
  page,
}) => {
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
  await expect(page.getByRole('link', { name: 'account settings' })).toHaveAttribute(
    'href',
    `/account/plans/${reference}/card/`,
  );

  // A month later the second instalment is refused, and the buyer is told.
  expect(await runJob(page, 31)).toMatchObject({ retrying: 1 });
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(buyer)}`);
  const refused = page
    .locator('.mail')
    .filter({ has: page.getByRole('heading', { name: `We could not take instalment 2 for order ${reference}` }) });
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
  await expect(
    page.getByRole('heading', {
      name: `Final instalment paid for order ${reference}: your tickets are in your wallet`,
    }),
  ).toBeVisible();

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
  const pass = await page.request.get(
    (await ticket.getByRole('link', { name: /^Add to Apple Wallet/ }).getAttribute('href'))!,
  );
  expect(pass.headers()['content-type']).toBe('application/vnd.apple.pkpass');
  await ticket.getByRole('link', { name: /^Save to Google Wallet/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Saved to Google Wallet (demo stand-in)' })).toBeVisible();
  await expect(page.getByText(code, { exact: true })).toBeVisible();
  await expectNoAxeViolations(page, 'the Google Wallet stand-in');
});

test('a buyer signs a second browser out from their account and stays signed in here', async ({
  page,
  browser,
  baseURL,
}) => {
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

test('a saved address made the default in my account is where the checkout’s address step starts', async ({ page }) => {
  const GALA = 'Lantern Comedy Gala Night';
  const POSTED = { tickets: { 'Stalls (posted ticket)': 1 } };
  await newBuyerAt(page, GALA, POSTED, 'delivery_address', 'Ada Lovelace');
  await expect(page.getByRole('radio')).toHaveCount(0);
  // Two addresses given for this sale are saved for next time, the second the newest.
  for (const [line, postcode] of [
    ['2 Briggate', 'LS1 6HD'],
    ['9 Call Lane', 'LS1 7DH'],
  ] as const) {
    const address = {
      selected_user_address_id: 'new',
      first_name: 'Ada',
      last_name: 'Lovelace',
      address_1: line,
      address_2: '',
      town: 'Leeds',
      postcode,
      country: '1',
      state: '',
    };
    const form = Object.fromEntries(Object.entries(address).map(([k, v]) => [`address[${k}]`, v]));
    expect((await page.request.post('/ajax/checkout/checkout/set_delivery_address/', { form })).status()).toBe(200);
  }
  expect((await page.request.post('/ajax/checkout/checkout/destroy_sale/', { form: {} })).status()).toBe(200);

  await page.goto('/account/');
  const saved = page.locator('#saved').locator('..');
  await expect(saved.getByText('9 Call Lane, Leeds, LS1 7DH, United Kingdom', { exact: true })).toBeVisible();
  await saved
    .getByRole('button', { name: 'Make default the address 2 Briggate, Leeds, LS1 6HD, United Kingdom' })
    .click();
  await expect(page).toHaveURL(/\/account\/\?done=address-default#saved$/);
  await expect(page.getByRole('status')).toHaveText('The address is now your default: the checkout starts from it.');
  await expect(saved.locator('li').filter({ hasText: '2 Briggate' })).toContainText('(default)');
  await expect(saved.getByRole('button', { name: /^Make default the address 2 Briggate/ })).toHaveCount(0);
  await expect(saved.getByRole('button', { name: /^Make default the address 9 Call Lane/ })).toBeVisible();
  await expectNoAxeViolations(page, 'my account with a default address');
  await expectTargetSizes(page, 'my account with a default address');

  // The next purchase's address step starts from the default, not the newest.
  await addFromEventPage(page, GALA, POSTED);
  await reserveButton(page).click();
  // Keep updated is asked once an organiser; the buyer answered it for this one before.
  await advanceTo(page, 'delivery_address');
  await expect(page.getByRole('radio', { name: /2 Briggate/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /9 Call Lane/ })).not.toBeChecked();
});
