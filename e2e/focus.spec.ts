import type { Page } from '@playwright/test';
import { expect, test } from './support.ts';
import { expectFocusNotLost, expectFocusOn } from './a11y.ts';
import {
  addFromEventPage,
  basketLine,
  basketStep,
  codeFromMailbox,
  expectStep,
  freshEmail,
  holdCalls,
  newAccount,
  reserveButton,
  urls,
} from './support.ts';

/** Keyboard focus after each action goes somewhere meaningful, with a ring, and never to the page body. */

async function press(page: Page, name: RegExp | string) {
  await page.getByRole('button', { name }).focus();
  await page.keyboard.press('Enter');
}

test('loading the checkout leaves focus where the browser puts it', async ({ page }) => {
  await page.goto('/checkout/');
  await expect(page.getByText('Looking for something to put in your basket?')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Basket' })).not.toBeFocused();
});

test('after Remove, focus goes to the line that took its place, then the one before, then the heading', async ({
  page,
}) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', {
    tickets: { 'General admission': 1, 'Riverside table seat': 1 },
    vouchers: { 'Riverside Arts gift voucher': 1 },
  });
  const lines = basketStep(page).getByRole('list', { name: 'Items in your basket' }).getByRole('listitem');
  await expect(lines).toHaveCount(3);
  const names = await lines.evaluateAll((items) => items.map((li) => li.textContent ?? ''));
  const order = ['Riverside Arts gift voucher', 'General admission', 'Riverside table seat'].sort(
    (a, b) => names.findIndex((t) => t.includes(a)) - names.findIndex((t) => t.includes(b)),
  );

  // A line in the middle: the next line moves up into its place and takes focus.
  await press(page, new RegExp(`remove ${order[1]}`, 'i'));
  await expect(lines).toHaveCount(2);
  await expectFocusOn(page, basketLine(page, order[2]!));

  // The last line: focus goes to the line before it.
  await press(page, new RegExp(`remove ${order[2]}`, 'i'));
  await expect(lines).toHaveCount(1);
  await expectFocusOn(page, basketLine(page, order[0]!));

  // The only line: the basket is empty and focus goes to its heading.
  await press(page, new RegExp(`remove ${order[0]}`, 'i'));
  await expect(page.getByText('Looking for something to put in your basket?')).toBeVisible();
  await expectFocusOn(page, page.getByRole('heading', { level: 1, name: 'Basket' }));
});

test('Remove keeps focus while the basket is saved', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', {
    tickets: { 'General admission': 1, 'Riverside table seat': 1 },
  });
  const server = await holdCalls(page, '/remove_from_basket/');
  await press(page, /remove general admission/i);
  await server.arrived();
  await expect(basketStep(page).getByRole('button', { name: /remove general admission/i })).toBeDisabled();
  await expectFocusOn(page, basketStep(page).getByRole('button', { name: /remove general admission/i }));
  server.release();
  await expect(basketLine(page, 'General admission')).toHaveCount(0);
  await expectFocusNotLost(page);
});

/** Signed out on the sign-in step, the e-mail address typed; focus is on its field. */
async function atSignIn(page: Page, email: string) {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await reserveButton(page).focus();
  await page.keyboard.press('Enter');
  await expectStep(page, 'login');
  await expectFocusOn(page, page.getByRole('heading', { level: 1, name: 'Sign in' }));
  const field = page.getByRole('textbox', { name: 'Email address' });
  await field.focus();
  await page.keyboard.type(email);
}

/** Tabs forward from the focused element until `target` has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: ReturnType<Page['getByRole']>) {
  for (let i = 0; i < 10; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('sign-in: Continue focuses the code field, Verify the name field, and its Continue the next step’s heading', async ({
  page,
}) => {
  const email = freshEmail('keyboard.new');
  await atSignIn(page, email);
  await tabTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');

  const code = page.getByRole('textbox', { name: 'One-time code' });
  await expect(page.getByText('Code sent to inbox')).toBeVisible();
  await expectFocusOn(page, code);
  await page.keyboard.type(await codeFromMailbox(page.request, email));
  await tabTo(page, page.getByRole('button', { name: 'Verify' }));
  await page.keyboard.press('Enter');

  const name = page.getByRole('textbox', { name: 'Full name' });
  await expectFocusOn(page, name);
  await page.keyboard.type('Kim Keyboard');
  await tabTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');
  await expectStep(page, 'marketing_preferences');
  await expectFocusOn(page, page.locator('[data-step="marketing_preferences"]').getByRole('heading', { level: 1 }));
});

test('sign-in with an account: Verify focuses the next step’s heading', async ({ page }) => {
  const email = await newAccount('Kit Keyboard');
  await atSignIn(page, email);
  await tabTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');
  await expectFocusOn(page, page.getByRole('textbox', { name: 'One-time code' }));
  await page.keyboard.type(await codeFromMailbox(page.request, email));
  await tabTo(page, page.getByRole('button', { name: 'Verify' }));
  await page.keyboard.press('Enter');
  await expectStep(page, 'marketing_preferences');
  await expectFocusOn(page, page.locator('[data-step="marketing_preferences"]').getByRole('heading', { level: 1 }));
});

test('sign-in: Check or change email focuses the e-mail field', async ({ page }) => {
  await atSignIn(page, freshEmail('keyboard.back'));
  await tabTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');
  await expectFocusOn(page, page.getByRole('textbox', { name: 'One-time code' }));
  await tabTo(page, page.getByRole('button', { name: 'Check or change email' }));
  await page.keyboard.press('Enter');
  await expectFocusOn(page, page.getByRole('textbox', { name: 'Email address' }));
});

test.describe('with a captcha', () => {
  test.use({ baseURL: urls.captcha });

  test('Reserve Basket focuses the captcha step’s heading, and Continue the next step’s', async ({ page }) => {
    await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
    await reserveButton(page).focus();
    await page.keyboard.press('Enter');
    await expectStep(page, 'captcha');
    await expectFocusOn(page, page.getByRole('heading', { level: 1, name: 'Checkout' }));

    await page.getByText("I'm not a robot", { exact: true }).click();
    await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled({ timeout: 30_000 });
    await press(page, 'Continue');
    await expectStep(page, 'login');
    await expectFocusOn(page, page.getByRole('heading', { level: 1, name: 'Sign in' }));
  });

  test('the captcha checkbox shows the same focus ring as the other controls', async ({ page }) => {
    await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
    await reserveButton(page).focus();
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { level: 1, name: 'Checkout' });
    await expectFocusOn(page, heading);
    const ring = (el: Element) => {
      const s = getComputedStyle(el);
      return { style: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor };
    };
    const expected = await heading.evaluate(ring);
    const checkbox = page.locator('altcha-widget input[type="checkbox"]');
    await expect(checkbox).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(checkbox).toBeFocused();
    await expectFocusNotLost(page);
    expect(await checkbox.evaluate(ring)).toEqual(expected);
  });
});
