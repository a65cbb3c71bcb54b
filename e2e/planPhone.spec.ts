/** A payment plan's contact number says what is wrong with it as soon as the buyer leaves the field (spec 001 §5). */
import { expect, fillBillingAddress, newBuyerAt, test } from './support.ts';

test('a plan buyer who types a short contact number and leaves the field is told to type a valid one', async ({
  page,
}) => {
  await newBuyerAt(page, 'Meadowlands Festival', { tickets: { 'Weekend camping ticket': 2 } });
  await fillBillingAddress(page);
  await page.getByRole('radio', { name: 'Set up a payment plan' }).check();
  await page.getByRole('radio', { name: /^3 monthly payments/ }).check();
  const phone = page.getByLabel('Contact number', { exact: true });
  await phone.fill('0770');
  await phone.blur();
  await expect(page.getByText('Type a valid phone number')).toBeVisible();
  await expect(phone).toHaveAttribute('aria-invalid', 'true');
  // Corrected, the message goes.
  await phone.fill('07700 900123');
  await expect(page.getByText('Type a valid phone number')).toHaveCount(0);
});
