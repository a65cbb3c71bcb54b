/** The site header's basket count on every page a buyer browses (spec 001 §9), the server's pages too. */
import { addFromEventPage, expect, test } from './support.ts';

test('sign-in, information, wallet and waiver pages show the basket count @anyWidth', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  const checkout = await (await page.request.get('/ajax/checkout/checkout/get/')).json();
  for (const path of [
    '/signin/',
    '/refund-policy/',
    '/legal-information/purchase-terms-and-conditions/',
    '/account/wallet/',
    '/activity-terms-and-conditions/UNKNOWN/',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('banner').getByRole('link', { name: /^Basket/ }), path).toHaveAccessibleName(
      'Basket 2 items',
    );
  }
  expect(checkout.basket_total).toBeGreaterThan(0);
});
