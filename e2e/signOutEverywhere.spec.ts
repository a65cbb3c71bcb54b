/**
 * Signing out everywhere: a buyer signed in on a phone and a laptop signs out of every device from
 * the laptop's wallet; the phone is signed out at its next request and its old session, replayed,
 * signs no one in.
 */
import type { Page } from '@playwright/test';
import { codeFromMailbox, expect, newAccount, test } from './support.ts';

async function signInByCode(page: Page, email: string) {
  await page.goto('/signin/');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send code', exact: true }).click();
  await expect(page.getByText(`Code sent to inbox ${email}`)).toBeVisible();
  await page.getByLabel('One-time code').fill(await codeFromMailbox(page.context(), email));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page).toHaveURL(/\/account\/wallet\/$/);
}

test('a buyer signed in on two browsers signs out everywhere from one; the other is signed out at its next request', async ({
  page: phone,
  browser,
  baseURL,
}) => {
  const email = await newAccount('Two Devices');
  const laptopContext = await browser.newContext({ baseURL });
  const laptop = await laptopContext.newPage();
  try {
    await signInByCode(phone, email);
    await signInByCode(laptop, email);
    await expect(phone.getByText(`Tickets of Two Devices (${email})`)).toBeVisible();
    const phoneSession = (await phone.context().cookies()).find((c) => c.name === 'hf_session')!.value;

    await laptop.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(laptop.getByRole('status')).toHaveText(
      'You are signed out on every device. Sign in again with a one-time code.',
    );
    await laptop.goto('/account/wallet/');
    await expect(laptop.getByText('Sign in to see your tickets. We e-mail you a one-time code.')).toBeVisible();

    // The phone's next request: signed out, and its session cookie gone.
    await phone.reload();
    await expect(phone.getByText('Sign in to see your tickets. We e-mail you a one-time code.')).toBeVisible();
    await expect(phone.getByText(email)).toHaveCount(0);
    expect((await phone.context().cookies()).find((c) => c.name === 'hf_session')?.value ?? '').not.toBe(phoneSession);

    // The phone's old session, put back, signs no one in.
    await phone.context().addCookies([{ name: 'hf_session', value: phoneSession, url: phone.url() }]);
    await phone.reload();
    await expect(phone.getByText('Sign in to see your tickets. We e-mail you a one-time code.')).toBeVisible();
  } finally {
    await laptopContext.close();
  }
});
