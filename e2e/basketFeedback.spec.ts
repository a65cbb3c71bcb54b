import type { Page } from '@playwright/test';
import { expect, test } from './support.ts';
import {
  addFromEventPage,
  basketLine,
  basketStep,
  clientLoaded,
  holdCalls,
  keepScreenshot,
  pauseClock,
  reserveButton,
} from './support.ts';

const MINIMUM_WARNING = 'You must purchase a minimum of 2 tickets of this type';
const MINIMUM_ONE_NOTE = 'The minimum is 1, so this is not saved. To take it out of your basket, use Remove.';

/** Records the quantity changes the page sends, so a test can say that nothing was sent. */
function quantityCalls(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/update_ticket_quantity/')) sent.push(request.postData() ?? '');
  });
  return sent;
}

/** What has keyboard focus: its role and accessible label, or 'body' when focus was lost. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    const label =
      el.getAttribute('aria-label') ??
      (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ??
      el.closest('label')?.textContent ??
      '';
    return `${el.tagName.toLowerCase()}${el.getAttribute('type') ? `[${el.getAttribute('type')}]` : ''}: ${label.trim()}`;
  });
}

test('a line below its minimum warns and blocks Reserve Basket, even when the server’s basket holds it so', async ({
  page,
}, testInfo) => {
  await addFromEventPage(page, 'The Lantern: Friday Late Show', { tickets: { 'Cabaret table (pairs)': 2 } });
  // The line reaches 1 without the basket's own input (another tab, an older page, the API).
  const status = await page.evaluate(async () => {
    const checkout = await (
      await fetch('/ajax/checkout/checkout/get/', { headers: { accept: 'application/json' } })
    ).json();
    const line = checkout.tickets.find((t: { ticket_name: string }) => t.ticket_name === 'Cabaret table (pairs)');
    const response = await fetch('/ajax/checkout/checkout/update_ticket_quantity/', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: `ticket_id=${line.ticket_id}&quantity=1`,
    });
    return response.status;
  });
  expect(status).toBe(200);
  await page.reload();
  const line = basketLine(page, 'Cabaret table (pairs)');
  await expect(line.getByRole('spinbutton')).toHaveValue('1');
  await expect(line.getByText(MINIMUM_WARNING)).toBeVisible();
  await expect(reserveButton(page)).toBeDisabled();
  await keepScreenshot(page, testInfo, 'basket-below-minimum');

  await line.getByRole('button', { name: /One more/ }).click();
  await expect(line.getByText(MINIMUM_WARNING)).toHaveCount(0);
  await expect(reserveButton(page)).toBeEnabled({ timeout: 10_000 });
});

test('clearing a quantity or typing 0 says what will happen, and sends nothing', async ({ page }, testInfo) => {
  await page.clock.install();
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 2 } });
  const sent = quantityCalls(page);
  await clientLoaded(page);
  await pauseClock(page);
  const quantity = basketStep(page).getByRole('spinbutton', { name: 'Quantity of 10K entry' });
  await quantity.fill('');
  await expect(quantity).toHaveAccessibleDescription(MINIMUM_ONE_NOTE);
  await expect(basketLine(page, '10K entry').getByRole('status')).toHaveText(MINIMUM_ONE_NOTE);
  await keepScreenshot(page, testInfo, 'basket-quantity-cleared');
  await quantity.fill('0');
  await expect(basketLine(page, '10K entry').getByRole('status')).toHaveText(MINIMUM_ONE_NOTE);
  await page.clock.runFor(2_500); // longer than the 2000 ms quiet spell
  expect(sent).toEqual([]);
  await quantity.fill('3');
  await expect(basketLine(page, '10K entry').getByRole('status')).toHaveText('');
  // 3 is sent after the quiet spell, not before.
  await page.clock.runFor(1_999);
  expect(sent).toEqual([]);
  await page.clock.runFor(2);
  await expect.poll(() => sent.length, { timeout: 5_000 }).toBe(1);
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const checkout = await (
          await fetch('/ajax/checkout/checkout/get/', { headers: { accept: 'application/json' } })
        ).json();
        return checkout.tickets[0].qty;
      }),
    )
    .toBe(3);
});

test('refund protection moves at once, and rolls back with the spec’s notification when the call fails', async ({
  page,
}) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
  const basket = basketStep(page);
  const yes = basket.getByRole('radio', { name: /^yes/i });
  const no = basket.getByRole('radio', { name: /^no/i });
  await expect(no).toBeChecked();

  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/update_refund_protection/', async (route) => {
    await held;
    await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Server unavailable"}' });
  });
  await yes.click();
  // Shown while the server has not answered yet.
  await expect(yes).toBeChecked({ timeout: 500 });
  release();
  await expect(page.getByText('Unable to update Refund protection. Please try again later').first()).toBeVisible();
  await expect(no).toBeChecked();
  await expect(yes).not.toBeChecked();
});

test('keyboard focus stays on the control after choosing refund protection with the arrow keys, and after a quantity is sent', async ({
  page,
}) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  // Each change is held at the network, so the test can look at focus while it is with the server.
  const protection = await holdCalls(page, '/update_refund_protection/');
  const quantityCall = await holdCalls(page, '/update_ticket_quantity/');
  const basket = basketStep(page);
  const list = basket.getByRole('list', { name: 'Items in your basket' });
  const no = basket.getByRole('radio', { name: /^no/i });
  await no.focus();
  await page.keyboard.press('ArrowUp');
  await expect(basket.getByRole('radio', { name: /^yes/i })).toBeChecked();
  // The change goes to the server and the basket is read again; focus is never lost meanwhile.
  await protection.arrived();
  await expect(list).toHaveAttribute('aria-busy', 'true');
  expect(await focused(page)).toMatch(/^input\[radio\]: Yes, protect my order/);
  protection.release();
  await expect(list).toHaveAttribute('aria-busy', 'false');
  expect(await focused(page)).toMatch(/^input\[radio\]: Yes, protect my order/);

  const quantity = basket.getByRole('spinbutton', { name: 'Quantity of General admission' });
  await quantity.focus();
  await page.keyboard.press('ArrowUp'); // a number input steps up with the arrow key
  await expect(quantity).toHaveValue('3');
  await quantityCall.arrived();
  await expect(list).toHaveAttribute('aria-busy', 'true');
  await expect(quantity).toHaveAttribute('aria-disabled', 'true');
  expect(await focused(page)).toBe('input[number]: Quantity of General admission');
  quantityCall.release();
  await expect(list).toHaveAttribute('aria-busy', 'false');
  expect(await focused(page)).toBe('input[number]: Quantity of General admission');

  const moreCall = await holdCalls(page, '/update_ticket_quantity/');
  const more = basket.getByRole('button', { name: 'One more General admission' });
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(quantity).toHaveValue('4');
  await moreCall.arrived();
  await expect(list).toHaveAttribute('aria-busy', 'true');
  expect(await focused(page)).toBe('button[button]: One more General admission');
  moreCall.release();
  await expect(list).toHaveAttribute('aria-busy', 'false');
  expect(await focused(page)).toBe('button[button]: One more General admission');
});
