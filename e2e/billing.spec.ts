/**
 * The billing address of the payment step keeps what the buyer typed after a declined card, and
 * starts from what the buyer already gave: the delivery address, or the account's name.
 */
import type { Page } from '@playwright/test';
import { answerLanternQuestions, expect, expectStep, newBuyerAt, test } from './support.ts';

const DECLINED = '4000 0000 0000 0002';

async function payByCard(page: Page, number: string) {
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Pay £\d+\.\d\d by card$/ })).toBeVisible();
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();
}

test('after a declined card the billing address still holds what the buyer typed', async ({ page }) => {
  await newBuyerAt(page, 'Ashcombe Winter Lantern Trail', { tickets: { 'Adult (5pm entry)': 1 } }, 'ticket_questions_before', 'Nia Newbuyer');
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
  await newBuyerAt(page, 'Lantern Comedy Gala Night', { tickets: { 'Stalls (posted ticket)': 1 } }, 'delivery_address', 'Ada Lovelace');
  await page.getByLabel('Find your address').fill('BS1 4RN');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page.getByRole('group', { name: 'Possible addresses' }).getByRole('button').filter({ hasText: '12 Quay Street, Bristol, BS1 4RN' }).click();
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
