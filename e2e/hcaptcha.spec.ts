/**
 * hCaptcha in the browser, on the server keyed for it (siteverify answered by e2e/fakeHcaptcha.ts),
 * with the widget's script served by the same stand-in in place of https://js.hcaptcha.com: the
 * captcha step draws hCaptcha's widget for the server's sitekey, the buyer passes it, and the
 * server's siteverify lets the reservation on; an expired check asks to be done again; a token
 * siteverify refuses gets the buyer a fresh widget, and solving that one reserves.
 */
import type { Page } from '@playwright/test';
import { addFromEventPage, expect, expectStep, reserveButton, test } from './support.ts';
import { servers } from './servers.ts';

const STAND_IN = `http://127.0.0.1:${servers.fakeHcaptcha}`;

test.use({ baseURL: `http://127.0.0.1:${servers.hcaptcha}` });

test.beforeEach(async ({ page }) => {
  // hCaptcha's widget script, from the local stand-in.
  await page.route('https://js.hcaptcha.com/1/api.js**', async (route) => {
    const response = await route.fetch({ url: `${STAND_IN}/1/api.js` });
    await route.fulfill({ response, headers: { 'content-type': 'text/javascript; charset=utf-8' } });
  });
});

async function reachCaptcha(page: Page) {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await reserveButton(page).click();
  await expectStep(page, 'captcha');
  await expect(page.getByText('Please prove you‘re a human being completing the CAPTCHA challenge.')).toBeVisible();
}

test('hCaptcha’s widget is passed in the browser and its token, verified by the server, lets the reservation on', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script' && r.url().startsWith('https://js.hcaptcha.com/')) scripts.push(r.url());
  });
  await reachCaptcha(page);
  const widget = page.locator('.fake-hcaptcha');
  await expect(widget).toHaveAttribute('data-sitekey', '10000000-ffff-ffff-ffff-000000000001');
  expect(scripts[0]).toMatch(/^https:\/\/js\.hcaptcha\.com\/1\/api\.js\?onload=hCaptchaOnLoad&render=explicit/);
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await widget.getByLabel('I am human').check();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'login');
});

test('an expired hCaptcha check asks to be completed again', async ({ page }) => {
  await reachCaptcha(page);
  const widget = page.locator('.fake-hcaptcha');
  await widget.getByLabel('I am human').check();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
  await widget.getByRole('button', { name: 'Let the check expire' }).click();
  await expect(page.getByText('The captcha challenge has expired. Please complete the challenge again.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
});

test('a token siteverify refuses gets the buyer a fresh widget, and solving it again reserves', async ({ page }) => {
  const sent: { token: string; captcha: unknown; reserved: unknown }[] = [];
  page.on('response', async (r) => {
    if (!r.url().endsWith('/ajax/checkout/checkout/reserve_tickets/')) return;
    const token = new URLSearchParams(r.request().postData() ?? '').get('h-captcha-response') ?? '';
    const body = (await r.json()) as { captcha?: unknown; reserved?: unknown };
    sent.push({ token, captcha: body.captcha, reserved: body.reserved });
  });
  await reachCaptcha(page);
  const widget = page.locator('.fake-hcaptcha');
  // The first widget is marked, so the one after the refusal can be told apart from it.
  await widget.evaluate((box) => box.setAttribute('data-first', ''));
  await widget.getByRole('button', { name: 'Pass with a token siteverify refuses' }).click();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Refused: still the captcha step, with a new, unsolved widget and Continue waiting for it.
  await expect(page.locator('.fake-hcaptcha[data-first]')).toHaveCount(0);
  await expect(widget).toHaveCount(1);
  await expectStep(page, 'captcha');
  await expect(widget.getByLabel('I am human')).not.toBeChecked();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
  expect(sent.slice(-1)).toEqual([{ token: expect.stringMatching(/^e2e-refused-/), captcha: true, reserved: false }]);

  await widget.getByLabel('I am human').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'login');
  expect(sent.slice(-1)).toEqual([{ token: expect.stringMatching(/^e2e-pass-/), captcha: undefined, reserved: true }]);
});
