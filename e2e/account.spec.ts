/**
 * Who is buying, through the real app and server: the one-time code read from the development
 * mailbox, the name of a new buyer, Keep updated, a signed-in buyer, the same sale on a second
 * browser, and each failure text of the account and marketing steps.
 */
import type { Page } from '@playwright/test';
import {
  addFromEventPage,
  codeFromMailbox,
  expect,
  expectStep,
  failCall,
  freshEmail,
  photographBothWidths,
  reserveButton,
  test,
} from './support.ts';

const PEAK_SIGNUP = 'Get race news from Peak Trail Events';

async function reserveTrailRun(page: Page) {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await reserveButton(page).click();
  await expectStep(page, 'login');
}

async function askForCode(page: Page, email: string) {
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Code sent to inbox')).toBeVisible();
}

test('a guest signs in with the code from the mailbox, gives a name, chooses updates and goes on', async ({
  page,
  context,
}, testInfo) => {
  test.slow();
  await reserveTrailRun(page);
  await expect(page.getByText("We'll email you a one-time sign in or registration code.")).toBeVisible();
  await expect(page.getByRole('link', { name: 'terms of sale' })).toBeVisible();
  await expect(page.getByText('Type your email address')).toBeVisible();
  await page.getByLabel('Email address').fill('not an email');
  await page.getByLabel('Email address').press('Enter');
  await expectStep(page, 'login');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Please type a valid email address')).toBeVisible();
  await photographBothWidths(page, testInfo, 'login-enter-email');

  const email = freshEmail('guest');
  await askForCode(page, email);
  const verify = page.getByRole('button', { name: 'Verify' });
  await expect(verify).toBeDisabled();
  const code = await codeFromMailbox(context, email);
  const codeField = page.getByLabel('One-time code');
  await codeField.fill(`${code.slice(0, 3)}-${code.slice(3)}`);
  await expect(codeField).toHaveValue(code);
  await photographBothWidths(page, testInfo, 'login-code-sent');
  await page.getByRole('button', { name: 'Clear the code' }).click();
  await expect(codeField).toHaveValue('');
  await expect(verify).toBeDisabled();
  await codeField.fill(code.slice(0, 5));
  await expect(verify).toBeDisabled();
  await codeField.fill(code);
  await verify.click();

  await expect(page.getByText('Type your full name')).toBeVisible();
  await page.getByLabel('Full name').fill('Ada');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Please type both your first and last name(s)')).toBeVisible();
  await photographBothWidths(page, testInfo, 'login-confirm-name');
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expectStep(page, 'marketing_preferences');
  await expect(page.getByText('Strongly Recommended')).toBeVisible();
  await expect(page.getByLabel(/community newsletter/)).toBeVisible();
  await page.getByLabel(PEAK_SIGNUP).check();
  await page.getByLabel(/Updates about the events in your basket/).check();
  await photographBothWidths(page, testInfo, 'marketing');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.locator('[data-step]')).not.toHaveAttribute('data-step', /login|marketing_preferences/);
  await expect(page.getByTestId('countdown-clock')).toBeVisible();
});

test('a signed-in buyer confirms the account, and can sign out of the sale instead', async ({ page }, testInfo) => {
  await page.goto('/signin/');
  await page.getByRole('button', { name: 'Continue as Tom Okafor' }).click();
  await reserveTrailRun(page);
  await expect(page.getByText('Tom Okafor')).toBeVisible();
  await expect(page.getByText('tom.okafor@example.com')).toBeVisible();
  await photographBothWidths(page, testInfo, 'login-confirm-account');
  await page.getByRole('button', { name: 'Not you? Sign out' }).click();
  await expect(page.getByLabel('Email address')).toBeVisible();
  await expect(page.getByText("We'll email you a one-time sign in or registration code.")).toBeVisible();
});

test('a signed-in buyer continues to Keep updated', async ({ page }) => {
  await page.goto('/signin/');
  await page.getByRole('button', { name: 'Continue as Tom Okafor' }).click();
  await reserveTrailRun(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'marketing_preferences');
  await expect(page.getByLabel(PEAK_SIGNUP)).toBeVisible();
});

test('a buyer with an account signs in with a code, and is asked only what they have not chosen', async ({
  page,
  context,
}) => {
  await reserveTrailRun(page);
  const email = 'amelia.hughes@example.co.uk';
  await askForCode(page, email);
  await page.getByLabel('One-time code').fill(await codeFromMailbox(context, email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectStep(page, 'marketing_preferences');
  // Already subscribed to both: only the organiser's own box is asked.
  await expect(page.getByLabel(PEAK_SIGNUP)).toBeVisible();
  await expect(page.getByText('Strongly Recommended')).toHaveCount(0);
  await expect(page.getByLabel(/community newsletter/)).toHaveCount(0);
});

test('signing in on a second browser resumes the same sale, hold and step', async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.slow();
  await reserveTrailRun(page);
  // A buyer of this test alone: the sale resumed is the account's newest live one, and the seeded
  // buyers hold sales of other tests running alongside.
  const email = freshEmail('two-browsers');
  await askForCode(page, email);
  await page.getByLabel('One-time code').fill(await codeFromMailbox(context, email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByLabel('Full name').fill('Grace Hopper');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'marketing_preferences');

  const laptop = await browser.newContext({ baseURL: baseURL! });
  try {
    const other = await laptop.newPage();
    // The app on this page is at the basket the server painted: no change of step, so no save
    // (update_basket_state) that could land on the sale resumed below.
    const saves: string[] = [];
    other.on('request', (r) => {
      if (r.url().includes('/ajax/checkout/checkout/update_basket_state/')) saves.push(r.url());
    });
    await other.goto('/checkout/');
    await expect(other.getByText('Looking for something to put in your basket?')).toBeVisible();
    await other.waitForLoadState('networkidle');
    expect(saves).toEqual([]);
    const headers = { origin: baseURL!, accept: 'application/json' };
    expect((await other.request.post('/ajax/user/user/send_one_time_code/', { form: { email }, headers })).ok()).toBe(
      true,
    );
    const code = await codeFromMailbox(laptop, email);
    const checked = await other.request.post('/ajax/user/user/check_one_time_code/', {
      form: { email, code },
      headers,
    });
    expect(await checked.json()).toEqual({ has_account: true });
    await other.goto('/checkout/');
    await expectStep(other, 'marketing_preferences');
    await expect(other.getByText('10K entry').first()).toBeVisible();
    await expect(other.getByTestId('countdown-clock')).toHaveText(/^(9|10):\d\d$/);
  } finally {
    await laptop.close();
  }
});

test('each failure of the account and marketing steps says so', async ({ page, context }) => {
  test.slow();
  await reserveTrailRun(page);
  await failCall(page, '/send_one_time_code/');
  await page.getByLabel('Email address').fill(freshEmail('fails'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Unable to send the code. Please try again later')).toBeVisible();
  await expect(page.getByText('Server unavailable')).toBeVisible();
  await page.unroute('**/send_one_time_code/');

  const email = freshEmail('wrong');
  await askForCode(page, email);
  const code = await codeFromMailbox(context, email);
  const wrong = code === '000000' ? '111111' : '000000';
  const codeField = page.getByLabel('One-time code');
  await codeField.fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('That code is not right. Please check the email we sent and try again.')).toBeVisible();
  await expect(codeField).toHaveValue('');
  await expect(codeField).toBeFocused();

  await page.getByRole('button', { name: 'Check or change email' }).click();
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('One-time code')).toHaveValue('');
  await page.getByLabel('One-time code').fill(await codeFromMailbox(context, email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByLabel('Full name').fill('Grace Hopper');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expectStep(page, 'marketing_preferences');
  await failCall(page, '/set_marketing_preferences/');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Unable to set the marketing preferences. Please try again later')).toBeVisible();
  await expectStep(page, 'marketing_preferences');
});

test('a failed sign-out says to refresh the page', async ({ page }) => {
  await page.goto('/signin/');
  await page.getByRole('button', { name: 'Continue as Tom Okafor' }).click();
  await reserveTrailRun(page);
  await failCall(page, '/logout_of_sale/');
  await page.getByRole('button', { name: 'Not you? Sign out' }).click();
  await expect(page.getByText('Unable to log out. Please refresh the page')).toBeVisible();
});

test('a code check that finds the reservation gone shows the server’s text on the basket', async ({
  page,
  context,
}) => {
  await reserveTrailRun(page);
  const email = freshEmail('late');
  await askForCode(page, email);
  const gone = 'Your tickets are no longer held for you. Please reserve them again.';
  await page.route('**/check_one_time_code/', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ error: gone, type: 'reserving', message: { error: gone } }),
    }),
  );
  await page.getByLabel('One-time code').fill(await codeFromMailbox(context, email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectStep(page, 'basket');
  await expect(page.getByText(gone)).toBeVisible();
});
