/** The site header's basket count (spec 001 §9): what is in the basket, kept up as it changes. */
import { addFromEventPage, basketStep, expect, test } from './support.ts';

test('the header counts the tickets and gift vouchers in the basket @anyWidth', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', {
    tickets: { 'General admission': 2 },
    vouchers: { 'Riverside Arts gift voucher': 1 },
  });
  const basketLink = page.getByRole('banner').getByRole('link', { name: /^Basket/ });
  await expect(basketLink).toHaveAccessibleName('Basket 3 items');
  await expect(basketLink.getByTestId('basket-count')).toHaveText(/^3/);

  await basketStep(page)
    .getByRole('button', { name: /remove riverside arts gift voucher/i })
    .click();
  await expect(basketLink).toHaveAccessibleName('Basket 2 items');

  // An empty basket shows no count.
  await basketStep(page)
    .getByRole('button', { name: /remove general admission/i })
    .click();
  await expect(basketLink).toHaveAccessibleName('Basket');
  await expect(basketLink.getByTestId('basket-count')).toHaveCount(0);
});

test('the catalogue and the seat page show the basket count too', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', {
    tickets: { 'General admission': 2 },
    vouchers: { 'Riverside Arts gift voucher': 1 },
  });
  await expect(page.getByRole('banner').getByRole('link', { name: /^Basket/ })).toHaveAccessibleName('Basket 3 items');

  // The catalogue, drawn by the server with the count.
  await page.goto('/all-events/');
  const basketLink = page.getByRole('banner').getByRole('link', { name: /^Basket/ });
  await expect(basketLink).toHaveAccessibleName('Basket 3 items');
  await page.getByRole('link', { name: 'Twelfth Night at the Harbour Playhouse' }).first().click();
  await expect(basketLink).toHaveAccessibleName('Basket 3 items');

  // The seat page's app announces the basket as the checkout does.
  await page.getByRole('link', { name: /^Choose your seats for/ }).click();
  await expect(page).toHaveURL(/\/events\/book_seats\/\d+\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Twelfth Night at the Harbour Playhouse' })).toBeVisible();
  await expect(basketLink).toHaveAccessibleName('Basket 3 items');
  await expect(basketLink.getByTestId('basket-count')).toHaveText(/^3/);
});
