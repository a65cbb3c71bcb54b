/**
 * Donation and Gift Aid through the real app and server: a donation of 25 with Gift Aid and a UK
 * address on to the sign-in step, 'Skip donation', each failure text of save_donation and
 * update_donation, and the declaration in the charity's download.
 */
import type { Page } from '@playwright/test';
import {
  advanceTo,
  addFromEventPage,
  expect,
  expectStep,
  failCall,
  photographBothWidths,
  reserveButton,
  test,
} from './support.ts';

const TITLE = 'Would you like to support Harbour Lights Trust?';
const DEMO_TOKEN = 'harbour-lights-gift-aid-demo-token';

/** A signed-in demo buyer, so the sign-in step after Gift Aid only asks to confirm the account. */
async function reserveJazzAs(page: Page, buyer: string | null) {
  if (buyer) {
    await page.goto('/signin/');
    await page.getByRole('button', { name: `Continue as ${buyer}` }).click();
  }
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
  await reserveButton(page).click();
  await expectStep(page, 'donation');
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
}

const summary = (page: Page) => page.locator('.summary').first();
const preset = (page: Page, text: string) => page.getByRole('button', { name: text, exact: true });
const otherAmount = (page: Page) => page.getByLabel('Other amount');

test('a donation of £25 with Gift Aid and a UK address, on through sign-in to payment, and into the charity’s schedule once paid', async ({
  page,
}, testInfo) => {
  // A house number of this test's own, so its declaration is told apart from any other of Tom's.
  const house = String(100 + Math.floor(Math.random() * 99_900));
  const declared = `,Tom,Okafor,${house},BS1 4RN,,,`;
  await reserveJazzAs(page, 'Tom Okafor');
  await expect(page.getByText(/A processing fee of 20p \+ 1\.5% plus VAT/)).toBeVisible();

  // Minimum 1: nothing chosen, or a custom amount below it.
  await page.getByRole('button', { name: 'Donate' }).click();
  await expect(page.getByText('Choose an amount or click Skip donation')).toBeVisible();
  await otherAmount(page).fill('0.50');
  await expect(page.getByText('Choose an amount or click Skip donation')).toBeHidden();
  await page.getByRole('button', { name: 'Donate £0.50' }).click();
  await expect(page.getByText('Choose an amount or click Skip donation')).toBeVisible();

  // A preset clears the custom amount and vice versa.
  await preset(page, '£25.00').click();
  await expect(preset(page, '£25.00')).toHaveAttribute('aria-pressed', 'true');
  await expect(otherAmount(page)).toHaveValue('');
  await otherAmount(page).fill('30');
  await expect(preset(page, '£25.00')).toHaveAttribute('aria-pressed', 'false');
  await preset(page, '£25.00').click();
  await expect(otherAmount(page)).toHaveValue('');
  await expect(page.getByText('Fee for this donation: £0.69.')).toBeVisible();
  await photographBothWidths(page, testInfo, 'donation');

  await page.getByRole('button', { name: 'Donate £25.00' }).click();
  await expectStep(page, 'gift_aid');
  await expect(summary(page).getByText('Donation to Harbour Lights Trust')).toBeVisible();
  await expect(summary(page).locator('.summary__row', { hasText: 'Donation fee' })).toContainText('£0.69');
  await expect(
    page.getByText('Harbour Lights Trust can claim £6.25 on your £25.00 donation.', { exact: false }),
  ).toBeVisible();

  // Gift Aid on: the three confirmations and, at 20 or more, line 1 and postcode.
  await page.getByRole('switch', { name: "I'd like to add Gift Aid" }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Please confirm all three statements to add Gift Aid')).toBeVisible();
  await expect(page.getByText('Type the first line of your address')).toBeVisible();
  await expect(page.getByText('Type your postcode')).toBeVisible();
  await expectStep(page, 'gift_aid');
  for (const statement of [/I am a UK taxpayer/, /This is my own money/, /I am not getting anything in return/]) {
    await page.getByRole('checkbox', { name: statement }).check();
  }
  await page.getByLabel('Address line 1').fill(`${house} Harbour Road`);
  await page.getByLabel('Postcode').fill('BS1 4RN');
  await expect(page.getByText('Type your postcode')).toBeHidden();
  await photographBothWidths(page, testInfo, 'gift-aid');

  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'login');
  await expect(summary(page).locator('.summary__row', { hasText: 'Gift Aid' })).toContainText('£6.25');

  // The sign-in step, as it stands: a signed-in buyer goes on with Continue.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.locator('[data-step="login"]')).toHaveCount(0);

  // The charity's download lists the declaration once the donation is paid, not before.
  const schedule = async () => {
    const csv = await page.request.post('/charity/gift-aid/declarations.csv', { form: { token: DEMO_TOKEN } });
    expect(csv.status()).toBe(200);
    return csv.text();
  };
  expect(await schedule()).not.toContain(declared);
  await advanceTo(page, 'payment');
  await page.getByLabel('Postcode or zip code').fill('BS1 4RN');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.locator('[data-step="deliver_tickets"], [data-step="order_completed"]')).toBeVisible({
    timeout: 20_000,
  });
  expect(await schedule()).toContain(declared);
});

test('Skip donation goes straight on to sign in, without a call', async ({ page }) => {
  await reserveJazzAs(page, null);
  const saves: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/save_donation/')) saves.push(request.url());
  });
  await page.getByRole('button', { name: 'Skip donation' }).click();
  await expectStep(page, 'login');
  await expect(summary(page).getByText('Donation')).toHaveCount(0);
  expect(saves).toEqual([]);
});

test('each failure of save_donation and update_donation is told in the spec’s words', async ({ page }) => {
  await reserveJazzAs(page, null);
  await preset(page, '£5.00').click();

  await failCall(page, '/ajax/checkout/checkout/save_donation/', 'abort');
  await page.getByRole('button', { name: 'Donate £5.00' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unable to save Donation. Please try again later' }),
  ).toBeVisible();

  for (const text of [
    'There was a problem setting your donation amount. Please try again.',
    'Please select an amount.',
  ]) {
    await page.unroute('**/ajax/checkout/checkout/save_donation/');
    await page.route('**/ajax/checkout/checkout/save_donation/', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: text }) }),
    );
    await page.getByRole('button', { name: 'Donate £5.00' }).click();
    await expect(page.getByRole('alert').filter({ hasText: text })).toBeVisible();
  }

  await page.unroute('**/ajax/checkout/checkout/save_donation/');
  await page.getByRole('button', { name: 'Donate £5.00' }).click();
  await expectStep(page, 'gift_aid');
  await expect(page.getByText('can claim £1.25 on your £5.00 donation', { exact: false })).toBeVisible();

  // Below 20 no address is asked for.
  await page.getByRole('switch', { name: "I'd like to add Gift Aid" }).check();
  await expect(page.getByLabel('Address line 1')).toHaveCount(0);
  for (const statement of [/I am a UK taxpayer/, /This is my own money/, /I am not getting anything in return/]) {
    await page.getByRole('checkbox', { name: statement }).check();
  }

  await failCall(page, '/ajax/checkout/checkout/update_donation/');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unable to update Donation. Please try again later' }),
  ).toBeVisible();

  await page.unroute('**/ajax/checkout/checkout/update_donation/');
  const refusal = 'There was a problem setting your gift aid status. Please try again.';
  await page.route('**/ajax/checkout/checkout/update_donation/', (route) =>
    route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: refusal }) }),
  );
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert').filter({ hasText: refusal })).toBeVisible();

  await page.unroute('**/ajax/checkout/checkout/update_donation/');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'login');
});
