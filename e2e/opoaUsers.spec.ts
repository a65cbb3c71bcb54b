/**
 * get_opoa_users (spec 001 §7: answers opoa_users and full_name) through the real app and server:
 * the payment step asks for it as it loads, and a billing address the sale knows without a name
 * starts from the signed-in buyer's full name; a member of the paying organiser's team, at its box
 * office, is shown the team and told the payment goes into the organiser's own account.
 */
import { EMPTY_BILLING_ADDRESS } from '../contract/index.ts';
import { demoBuyerAt, expect, newBuyerAt, test } from './support.ts';

test('the payment step reads get_opoa_users and names a nameless billing address after the signed-in buyer', async ({
  page,
}) => {
  // The sale knows an address without a name (as when one was given for delivery without it).
  await page.route('**/ajax/checkout/checkout/get_payment_error/', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    await route.fulfill({
      response,
      json: { ...body, billing_address: { ...EMPTY_BILLING_ADDRESS, town: 'Bristol' } },
    });
  });
  const opoa = page.waitForResponse(
    (r) => r.url().endsWith('/ajax/checkout/checkout/get_opoa_users/') && r.request().method() === 'POST',
  );
  await newBuyerAt(page, 'Folk at the Ropewalk', { tickets: { 'Session seat': 1 } }, 'payment', 'Nia Ama Newbuyer');
  const answer = await opoa;
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toEqual({ opoa_users: [], full_name: 'Nia Ama Newbuyer' });

  await expect(page.getByLabel('First name')).toHaveValue('Nia Ama');
  await expect(page.getByLabel('Last name')).toHaveValue('Newbuyer');
  await expect(page.getByLabel('Town or city')).toHaveValue('Bristol');
});

test('a member of the organiser’s team is told, on the payment step, that the payment goes into the organiser’s own account', async ({
  page,
}) => {
  const opoa = page.waitForResponse(
    (r) => r.url().endsWith('/ajax/checkout/checkout/get_opoa_users/') && r.request().method() === 'POST',
  );
  await demoBuyerAt(page, 'Folk at the Ropewalk', { tickets: { 'Session seat': 1 } }, 'payment', 'Gareth Price');
  const answer = (await (await opoa).json()) as { opoa_users: { id: number; full_name: string }[]; full_name: string };
  expect(answer.opoa_users.map((u) => u.full_name)).toEqual(['Gareth Price', 'Siân Morgan']);
  await expect(page.getByRole('status').filter({ hasText: 'Box office' })).toHaveText(
    'Box office: you are on the organiser’s team (Gareth Price and Siân Morgan), so this payment goes into the organiser’s own account.',
  );
});

test('a buyer who is not on the team is shown no team', async ({ page }) => {
  await newBuyerAt(page, 'Folk at the Ropewalk', { tickets: { 'Session seat': 1 } });
  await expect(page.getByLabel('First name')).toBeVisible();
  await expect(page.getByText('Box office:')).toHaveCount(0);
});
