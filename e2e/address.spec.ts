/**
 * The delivery address step through the real app and server (spec 000 §2, §4, §5; spec 001 §2,
 * §5, §8): a buyer of posted tickets finds the address with the lookup, a signed-in buyer picks a
 * saved address, manual entry with a US state, the failure text of set_delivery_address, and who
 * a gift voucher is from and for.
 */
import type { Page } from '@playwright/test';
import {
  advanceTo,
  addFromEventPage,
  demoBuyerAt,
  expect,
  expectStep,
  failCall,
  freshEmail,
  photograph,
  photographBothWidths,
  reserveButton,
  test,
  type Wanted,
} from './support.ts';

const GALA = 'Lantern Comedy Gala Night';
const POSTED = { tickets: { 'Stalls (posted ticket)': 1 } };

/** A guest reserves, signs in with the mailed code, gives a name, keeps updated, and reaches the address. */
async function guestToDeliveryAddress(page: Page, wanted: Wanted = POSTED) {
  await addFromEventPage(page, GALA, wanted);
  await reserveButton(page).click();
  const buyer = { email: freshEmail('buyer'), fullName: 'Ada Lovelace' };
  // Keep updated is asked about a basket with tickets; vouchers alone go straight on.
  if (wanted.tickets) await advanceTo(page, 'marketing_preferences', { buyer });
  await advanceTo(page, 'delivery_address', { buyer });
  await expect(page.getByRole('heading', { level: 1, name: 'Delivery Address' })).toBeVisible();
}

const continueButton = (page: Page) =>
  page.locator('[data-step="delivery_address"]').getByRole('button', { name: 'Continue' });
const findButton = (page: Page) => page.getByRole('button', { name: 'Find', exact: true });

const screenshots = (page: Page) => photographBothWidths(page, test.info(), 'delivery-address', 'docs/screenshots');

test('a buyer of posted tickets finds the address with the lookup, completes it and goes on', async ({ page }) => {
  test.slow();
  await guestToDeliveryAddress(page);
  await expect(page.getByRole('radio')).toHaveCount(0);

  // Find waits for 3 characters.
  await expect(continueButton(page)).toBeDisabled();
  await expect(findButton(page)).toBeDisabled();
  await page.getByLabel('Find your address').fill('BS');
  await expect(findButton(page)).toBeDisabled();
  await page.getByLabel('Find your address').fill('BS1 4RN');
  await expect(findButton(page)).toBeEnabled();
  await findButton(page).click();
  const possible = page.getByRole('group', { name: 'Possible addresses' }).getByRole('button');
  await expect(possible).toHaveCount(10);
  await expect(page.getByText('10 addresses found: choose yours.')).toBeVisible();
  await screenshots(page);

  // Picking one fills the fields and hides the finder; the names are still missing.
  await possible.filter({ hasText: '12 Quay Street, Bristol, BS1 4RN' }).click();
  await expect(page.getByLabel('Find your address')).toHaveCount(0);
  await expect(page.getByLabel('Address line 1')).toHaveValue('12 Quay Street');
  await expect(page.getByLabel('Town or city')).toHaveValue('Bristol');
  await expect(page.getByLabel('Postcode or ZIP code')).toHaveValue('BS1 4RN');
  await expect(page.getByLabel('Country')).toHaveValue('1');
  await expect(continueButton(page)).toBeDisabled();
  await page.getByLabel('First name').focus();
  await page.getByLabel('Last name').focus();
  await expect(page.getByText("Type the recipient's first name")).toBeVisible();
  await page.getByLabel('First name').fill('Ada');
  await expect(page.getByText("Type the recipient's first name")).toBeHidden();
  await page.getByLabel('Last name').fill('Lovelace');
  await expect(continueButton(page)).toBeEnabled();

  // A postcode taken away disables Continue again.
  await page.getByLabel('Postcode or ZIP code').fill('');
  await page.getByLabel('Town or city').focus();
  await expect(page.getByText('Type the postcode')).toBeVisible();
  await expect(continueButton(page)).toBeDisabled();
  await page.getByLabel('Postcode or ZIP code').fill('BS1 4RN');
  await continueButton(page).click();
  await expectStep(page, 'payment');
});

test('a signed-in buyer picks a saved address', async ({ page }) => {
  await demoBuyerAt(page, GALA, POSTED, 'delivery_address', 'Amelia Hughes');

  const saved = page.getByRole('radio', { name: /14 Quay Street, Bristol, BS1 4RN, United Kingdom/ });
  await expect(saved).toBeChecked();
  await expect(
    page.getByRole('button', { name: 'Delete the address 14 Quay Street, Bristol, BS1 4RN, United Kingdom' }),
  ).toBeVisible();
  // A new address shows the finder; the saved one hides it again.
  await page.getByRole('radio', { name: 'Use a new address' }).check();
  await expect(page.getByLabel('Find your address')).toBeVisible();
  await expect(continueButton(page)).toBeDisabled();
  await saved.check();
  await expect(page.getByLabel('Find your address')).toHaveCount(0);
  await expect(continueButton(page)).toBeEnabled();
  await continueButton(page).click();
  await expectStep(page, 'payment');
});

test('manual entry in the USA needs a state', async ({ page }) => {
  test.slow();
  await guestToDeliveryAddress(page);
  await page.getByRole('button', { name: 'Enter the address manually' }).click();
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Address line 1').fill('310 Valencia Street');
  await page.getByLabel('Town or city').fill('San Francisco');
  await page.getByLabel('Postcode or ZIP code').fill('94110');
  await expect(page.getByLabel('State')).toHaveCount(0);
  await expect(continueButton(page)).toBeEnabled();
  await page.getByLabel('Country').selectOption({ label: 'United States' });
  await expect(continueButton(page)).toBeDisabled();
  await page.getByLabel('State').focus();
  await page.getByLabel('Country').focus();
  await expect(page.getByText('Choose the state')).toBeVisible();
  await page.getByLabel('State').selectOption({ label: 'California' });
  await expect(page.getByText('Choose the state')).toBeHidden();
  await continueButton(page).click();
  await expectStep(page, 'payment');
});

test('a failed set_delivery_address says so in the spec’s words, and the buyer can try again', async ({ page }) => {
  test.slow();
  await guestToDeliveryAddress(page);
  await page.getByLabel('Find your address').fill('310 valencia');
  await findButton(page).click();
  await page.getByRole('button', { name: '310 Valencia Street, San Francisco, CA, 94110' }).click();
  await expect(page.getByLabel('Country')).toHaveValue('2');
  await expect(page.getByLabel('State')).toHaveValue('CA');
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');

  await failCall(page, '/ajax/checkout/checkout/set_delivery_address/');
  await continueButton(page).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unable to set the delivery Address. Please try again later' }),
  ).toBeVisible();
  await expectStep(page, 'delivery_address');

  await page.unroute('**/ajax/checkout/checkout/set_delivery_address/');
  await continueButton(page).click();
  await expectStep(page, 'payment');
});

test('a basket with a gift voucher asks who it is from and for', async ({ page }, testInfo) => {
  test.slow();
  await guestToDeliveryAddress(page, { vouchers: { 'Lantern Comedy gift card': 1 } });
  await page.getByRole('button', { name: 'Enter the address manually' }).click();
  for (const [label, value] of [
    ['First name', 'Grace'],
    ['Last name', 'Hopper'],
    ['Address line 1', '1 Park Street'],
    ['Town or city', 'Bristol'],
    ['Postcode or ZIP code', 'BS1 5NT'],
  ] as const) {
    await page.getByLabel(label).fill(value);
  }
  await expect(continueButton(page)).toBeDisabled();
  await page.getByLabel('Gift voucher from').focus();
  await page.getByLabel('Gift voucher to').focus();
  await page.getByLabel('First name').focus();
  await expect(page.getByText('Who is the gift voucher from?')).toBeVisible();
  await expect(page.getByText('Who is the gift voucher for?')).toBeVisible();
  await page.getByLabel('Gift voucher from').fill('Ada');
  await expect(page.getByText('Who is the gift voucher from?')).toBeHidden();
  await expect(continueButton(page)).toBeDisabled();
  await page.getByLabel('Gift voucher to').fill('Grace');
  await expect(page.getByText('Who is the gift voucher for?')).toBeHidden();
  await page.setViewportSize({ width: 360, height: 740 });
  await photograph(page, testInfo.outputPath('delivery-address-vouchers-phone.png'), { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await continueButton(page).click();
  await expectStep(page, 'payment');
});

test('a new address of a signed-in buyer is saved for the next checkout, where it can be deleted', async ({
  browser,
}) => {
  test.slow();
  const atDeliveryAsTom = async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('/signin/');
    await page.getByRole('button', { name: 'Continue as Tom Okafor' }).click();
    await addFromEventPage(page, GALA, POSTED);
    await reserveButton(page).click();
    await advanceTo(page, 'delivery_address');
    await expect(continueButton(page)).toBeVisible();
    return { context, page };
  };

  const first = await atDeliveryAsTom();
  await first.page.getByRole('button', { name: 'Enter the address manually' }).click();
  for (const [label, value] of [
    ['First name', 'Tom'],
    ['Last name', 'Okafor'],
    ['Address line 1', '8 Oldham Street'],
    ['Town or city', 'Manchester'],
    ['Postcode or ZIP code', 'M1 1JQ'],
  ] as const) {
    await first.page.getByLabel(label).fill(value);
  }
  await continueButton(first.page).click();
  await expectStep(first.page, 'payment');
  await first.context.close();

  const second = await atDeliveryAsTom();
  const page = second.page;
  const saved = page.getByRole('radio', { name: /8 Oldham Street, Manchester, M1 1JQ, United Kingdom/ });
  await expect(saved).toBeChecked();
  await expect(continueButton(page)).toBeEnabled();
  await page
    .getByRole('button', { name: 'Delete the address 8 Oldham Street, Manchester, M1 1JQ, United Kingdom' })
    .click();
  await expect(saved).toHaveCount(0);
  await expect(page.getByLabel('Find your address')).toBeVisible();
  await expect(continueButton(page)).toBeDisabled();
  // Gone on the server too.
  const listed = await page.request.post('/ajax/user/user/get_user_addresses/', { form: {} });
  expect(
    ((await listed.json()) as { existing_addresses: { full_address: string }[] }).existing_addresses.map(
      (a) => a.full_address,
    ),
  ).not.toContain('8 Oldham Street, Manchester, M1 1JQ, United Kingdom');
  await second.context.close();
});
