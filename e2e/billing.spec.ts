/**
 * The billing address of the payment step keeps what the buyer typed after a declined card, and
 * starts from what the buyer already gave: the delivery address, or the account's name.
 */
import type { Page } from '@playwright/test';
import { answerLanternQuestions, expect, expectStep, newBuyerAt, photographBothWidths, test } from './support.ts';

const DECLINED = '4000 0000 0000 0002';
const APPROVED = '4242 4242 4242 4242';

async function payByCard(page: Page, number: string) {
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Pay £\d+\.\d\d by card$/ })).toBeVisible();
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();
}

test('after a declined card the billing address still holds what the buyer typed', async ({ page }) => {
  await newBuyerAt(
    page,
    'Ashcombe Winter Lantern Trail',
    { tickets: { 'Adult (5pm entry)': 1 } },
    'ticket_questions_before',
    'Nia Newbuyer',
  );
  await answerLanternQuestions(page);
  await expectStep(page, 'payment');
  // The account's name is already given.
  await expect(page.getByLabel('First name')).toHaveValue('Nia');
  await expect(page.getByLabel('Last name')).toHaveValue('Newbuyer');
  await page.getByLabel('First name').fill('Tom');
  await page.getByLabel('Last name').fill('Okafor');
  await page.getByLabel('Address line 1').fill('4 Mill Lane');
  await page.getByLabel('Address line 2 (optional)').fill('Stratton');
  await page.getByLabel('Town or city').fill('Cirencester');
  await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
  await payByCard(page, DECLINED);
  await expectStep(page, 'payment');
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue('Tom');
  await expect(page.getByLabel('Last name')).toHaveValue('Okafor');
  await expect(page.getByLabel('Address line 1')).toHaveValue('4 Mill Lane');
  await expect(page.getByLabel('Address line 2 (optional)')).toHaveValue('Stratton');
  await expect(page.getByLabel('Town or city')).toHaveValue('Cirencester');
  await expect(page.getByLabel('Postcode or zip code')).toHaveValue('GL7 1AB');
});

test('a buyer who gave a delivery address finds it as the billing address', async ({ page }) => {
  await newBuyerAt(
    page,
    'Lantern Comedy Gala Night',
    { tickets: { 'Stalls (posted ticket)': 1 } },
    'delivery_address',
    'Ada Lovelace',
  );
  await page.getByLabel('Find your address').fill('BS1 4RN');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page
    .getByRole('group', { name: 'Possible addresses' })
    .getByRole('button')
    .filter({ hasText: '12 Quay Street, Bristol, BS1 4RN' })
    .click();
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.locator('[data-step="delivery_address"]').getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'payment');
  await expect(page.getByLabel('First name')).toHaveValue('Grace');
  await expect(page.getByLabel('Last name')).toHaveValue('Hopper');
  await expect(page.getByLabel('Address line 1')).toHaveValue('12 Quay Street');
  await expect(page.getByLabel('Town or city')).toHaveValue('Bristol');
  await expect(page.getByLabel('Postcode or zip code')).toHaveValue('BS1 4RN');
});

test('a buyer finds a US address, picks its state, then pays with a saved address: the billing form is the shared address form', async ({
  page,
}, testInfo) => {
  await newBuyerAt(
    page,
    'Lantern Comedy Gala Night',
    { tickets: { 'Stalls (posted ticket)': 1 } },
    'delivery_address',
    'Ada Lovelace',
  );
  // The delivery address of a signed-in buyer is saved for next time.
  await page.getByLabel('Find your address').fill('BS1 4RN');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page
    .getByRole('group', { name: 'Possible addresses' })
    .getByRole('button')
    .filter({ hasText: '12 Quay Street, Bristol, BS1 4RN' })
    .click();
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.locator('[data-step="delivery_address"]').getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'payment');

  const billing = page.getByRole('group', { name: 'Billing address' });
  // The saved address is offered; the address just given is the new one, in its fields.
  await expect(billing.getByRole('radio', { name: /12 Quay Street, Bristol, BS1 4RN/ })).toBeVisible();
  await expect(billing.getByRole('radio', { name: 'Use a new address' })).toBeChecked();
  await expect(billing.getByLabel('Address line 1')).toHaveValue('12 Quay Street');

  // The finder, in the USA: the country and its state come with the address.
  await billing.getByRole('button', { name: 'Find the address instead' }).click();
  await billing.getByLabel('Find your address').fill('94110');
  await billing.getByRole('button', { name: 'Find', exact: true }).click();
  await billing
    .getByRole('group', { name: 'Possible addresses' })
    .getByRole('button')
    .filter({ hasText: 'Valencia Street, San Francisco, CA, 94110' })
    .first()
    .click();
  await expect(billing.getByLabel('Country')).toHaveValue('2');
  await expect(billing.getByLabel('State')).toHaveValue('CA');
  // The USA needs a state.
  await billing.getByLabel('State').selectOption('');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(billing.getByText('Choose the state')).toBeVisible();
  await expect(billing.getByText('Please complete your address')).toBeVisible();
  await billing.getByLabel('State').selectOption({ label: 'California' });
  await expect(billing.getByText('Please complete your address')).toBeHidden();
  await photographBothWidths(page, testInfo, 'billing-address-usa');

  // Declined: the form starts again from the US address, its country and state.
  await payByCard(page, DECLINED);
  await expectStep(page, 'payment');
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  await expect(billing.getByLabel('Address line 1')).toHaveValue(/Valencia Street$/);
  await expect(billing.getByLabel('Country')).toHaveValue('2');
  await expect(billing.getByLabel('State')).toHaveValue('CA');

  // The saved address instead, and the card approved.
  await billing.getByRole('radio', { name: /12 Quay Street, Bristol, BS1 4RN/ }).check();
  await expect(billing.getByLabel('Address line 1')).toBeHidden();
  await payByCard(page, APPROVED);
  await expectStep(page, 'deliver_tickets');
});
