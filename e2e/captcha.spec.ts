import { expect, test } from './support.ts';
import { addFromEventPage, expectStep, failCall, reserveButton, urls } from './support.ts';

test.use({ baseURL: urls.captcha });

async function reachCaptcha(page: import('@playwright/test').Page) {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await reserveButton(page).click();
  await expectStep(page, 'captcha');
  await expect(page.getByText('Please prove you‘re a human being completing the CAPTCHA challenge.')).toBeVisible();
}

async function solve(page: import('@playwright/test').Page) {
  await page.getByText("I'm not a robot", { exact: true }).click();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled({ timeout: 30_000 });
}

test('the local proof-of-work captcha is solved in the browser and the reservation goes on', async ({ page }) => {
  await reachCaptcha(page);
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await solve(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'login');
});

test('an expired challenge asks to be completed again', async ({ page }) => {
  await reachCaptcha(page);
  await solve(page);
  // The widget reports expiry through the same event it uses for every state change.
  await page
    .locator('altcha-widget')
    .evaluate((el) =>
      el.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'expired', payload: null } })),
    );
  await expect(page.getByText('The captcha challenge has expired. Please complete the challenge again.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
});

test('a reservation that fails after the captcha says so', async ({ page }) => {
  await reachCaptcha(page);
  await solve(page);
  await failCall(page, '/reserve_tickets/', 'abort');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Unable to reserve ticket(s). Please try again later')).toBeVisible();
});

test('a widget error is shown as the widget gives it', async ({ page }) => {
  await reachCaptcha(page);
  await page
    .locator('altcha-widget')
    .evaluate((el) => el.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'error', payload: null } })));
  const shown = await page.evaluate(
    () =>
      (
        globalThis as { $altcha?: { i18n: { get: (l: string) => Record<string, string> | undefined } } }
      ).$altcha?.i18n.get('en')?.error,
  );
  expect(shown).toBeTruthy();
  await expect(page.getByText(shown!)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
});

test('a solution the server refuses gives a fresh widget, solved again to reserve', async ({ page }) => {
  await reachCaptcha(page);
  await solve(page);
  // The server refuses the first solution: it answers with a captcha again.
  let refused = false;
  await page.route('**/reserve_tickets/', async (route) => {
    if (refused) return route.continue();
    refused = true;
    await route.fulfill({ json: { reserved: false, captcha: true, captcha_sitekey: 'local-altcha' } });
  });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await expect(page.getByText("I'm not a robot", { exact: true })).toBeVisible();
  await expect(page.locator('altcha-widget input[type="checkbox"]')).not.toBeChecked();
  await solve(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'login');
  expect(refused).toBe(true);
});
