/**
 * The sign-in page through the real app and server: from the checkout's footer, an e-mail address,
 * the one-time code read from the development mailbox, and the buyer lands in their wallet; a
 * new address gives a name and gets an account, and signs in by code again later.
 */
import type { Page } from '@playwright/test';
import { codeFromMailbox, expect, test } from './support.ts';

/** From the checkout app's footer to the sign-in page's code form. */
async function askForCodeFromFooter(page: Page, email: string) {
  await page.goto('/checkout/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/signin\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expect(page.getByText("We'll email you a one-time sign in or registration code.")).toBeVisible();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send code', exact: true }).click();
  await expect(page.getByText(`Code sent to inbox ${email}`)).toBeVisible();
}

test('a new buyer signs in from the footer with a code, gives a name, and lands in the wallet; later the code alone signs them in', async ({
  page,
  context,
}, testInfo) => {
  const email = `footer.${testInfo.project.name}.${Date.now()}@example.org`;
  await askForCodeFromFooter(page, email);

  // A wrong code is refused in the checkout's words, and the form stays.
  const code = await codeFromMailbox(context, email);
  await page.getByLabel('One-time code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'That code is not right. Please check the email we sent and try again.',
  );

  await page.getByLabel('One-time code').fill(code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await page.getByLabel('Full name').fill('Footer Reader');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page).toHaveURL(/\/account\/wallet\/$/);
  await expect(page.getByText(`Tickets of Footer Reader (${email})`)).toBeVisible();

  await page.goto('/signout/');
  await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/all-events\/$/);

  await askForCodeFromFooter(page, email);
  await page.getByLabel('One-time code').fill(await codeFromMailbox(context, email));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page).toHaveURL(/\/account\/wallet\/$/);
  await expect(page.getByText(`Tickets of Footer Reader (${email})`)).toBeVisible();
});
