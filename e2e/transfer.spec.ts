/**
 * Transferring tickets through the real app and server (spec 001 §2 Transfer tickets, §5 Transfer
 * row, §7 set_transfers, §8): a buyer of two free tickets opens Transfer tickets on order completed,
 * meets each validation message, sees a failed send told in the spec's words, sends one ticket as a
 * gift 'Send now', and the recipient accepts it from the e-mail in the development mailbox: the
 * ticket moves to the recipient's wallet, the other stays in the buyer's.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expectTargetSizes } from './a11y.ts';
import { expect, expectStep, failCall, photographBothWidths, test, throughDelivery } from './support.ts';
import { FREE_EVENT, FREE_TICKET, freeOrderOnDelivery } from './freeOrder.ts';

const SET_TRANSFERS = '/ajax/checkout/checkout/set_transfers/';
const SECTION = `${FREE_EVENT} - ${FREE_TICKET}`;

/** Today in the UK as the date input writes it. */
function todayIso(): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date());
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** axe (WCAG 2.2 A and AA and best practices) on the transfer form itself; the page around it is the overview's. */
async function expectNoAxeViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page })
    .include('.transfer')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .options({ resultTypes: ['violations'] })
    .analyze();
  const lines = results.violations.flatMap((v) => [
    `${v.id}: ${v.help}`,
    ...v.nodes.map((n) => `    ${n.target.join(' ')}`),
  ]);
  expect(lines, `axe found violations on ${label}`).toEqual([]);
}

async function openTransfer(page: Page) {
  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  await page.getByRole('button', { name: 'Transfer tickets' }).click();
  await expect(page.getByRole('heading', { name: 'Transfer tickets' })).toBeFocused();
}

test('a buyer gifts a ticket now; a failed send is told and tried again; the recipient accepts it into their wallet', async ({
  page,
  browser,
}) => {
  test.slow();
  const buyer = await freeOrderOnDelivery(page, 2);
  await openTransfer(page);

  const send = page.getByRole('button', { name: 'Send tickets' });
  // Every row starts at 0 and the section collapsed: there is nothing to send yet.
  await expect(send).toBeDisabled();
  const toggle = page.getByRole('button', { name: new RegExp(`^${SECTION}`) });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const rows = page.getByTestId('transfer-row');
  await expect(rows).toHaveCount(1);
  const first = rows.first();
  const qty = first.getByLabel('Tickets to send');
  await expect(qty).toHaveValue('0');
  await expect(first.getByRole('button', { name: /One fewer ticket/ })).toBeDisabled();
  await first.getByRole('button', { name: /One more ticket/ }).click();
  await expect(qty).toHaveValue('1');

  // An added row starts at 1; with both tickets given, neither plus nor another row is allowed.
  await page.getByRole('button', { name: `Add a recipient for ${SECTION}` }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1).getByLabel('Tickets to send')).toHaveValue('1');
  await expect(first.getByRole('button', { name: /One more ticket/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: `Add a recipient for ${SECTION}` })).toBeDisabled();
  await expect(first.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await rows
    .nth(1)
    .getByRole('button', { name: /^Remove/ })
    .click();
  await expect(rows).toHaveCount(1);

  // Submitting shows the first invalid row's messages, and sends nothing.
  let calls = 0;
  page.on('request', (r) => {
    if (r.url().endsWith(SET_TRANSFERS)) calls++;
  });
  await send.click();
  await expect(first.getByText('Please enter a name')).toBeVisible();
  await expect(first.getByText('Please enter an email')).toBeVisible();
  await photographBothWidths(page, test.info(), 'transfer-invalid-row', 'docs/screenshots');
  await expect(first.getByLabel('Full name')).toHaveAttribute('aria-invalid', 'true');
  const recipient = `friend-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  await first.getByLabel('Full name').fill('Grace Hopper');
  await expect(first.getByText('Please enter a name')).toHaveCount(0);
  await first.getByLabel('Email').fill(recipient);
  await expect(first.getByText('Please enter an email')).toHaveCount(0);

  // A gift is scheduled by default: it needs a date and a time.
  await first.getByText('This ticket is a gift').click();
  await expect(first.getByRole('radio', { name: 'Schedule' })).toBeChecked();
  await expect(first.getByRole('radio', { name: 'Send now' })).not.toBeChecked();
  await send.click();
  await expect(first.getByText('Please enter a date')).toBeVisible();
  await expect(first.getByText('Please enter a time')).toBeVisible();
  await expect(first.getByLabel('Delivery date')).toHaveAttribute('min', todayIso());
  await first.getByLabel('Delivery date').fill(todayIso());
  await first.getByLabel('Delivery time').fill('23:59');
  await expect(first.getByText('Please enter a date')).toHaveCount(0);
  await expect(first.getByText('Please enter a time')).toHaveCount(0);
  await first.getByLabel('Message (optional)').fill('Happy birthday, Grace!');
  await expectNoAxeViolations(page, 'transfer tickets, a scheduled gift');
  await photographBothWidths(page, test.info(), 'transfer-scheduled-gift', 'docs/screenshots');
  await page.setViewportSize({ width: 360, height: 740 });
  await expectTargetSizes(page, 'transfer tickets on a phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  await first.getByText('Send now').click();
  await expect(first.getByLabel('Delivery date')).toHaveCount(0);
  await expect(first.getByLabel('Delivery time')).toHaveCount(0);
  expect(calls).toBe(0);

  // The server fails: the spec's words, and the buyer can send again.
  await failCall(page, SET_TRANSFERS);
  await send.click();
  await expect(page.getByText('Unable to send tickets. Please try again later')).toBeVisible();
  await expect(send).toBeEnabled();
  await page.unroute(`**${SET_TRANSFERS}`);
  await send.click();
  await expect(page.getByText('Your tickets have been transferred')).toBeVisible();
  await expect(page.getByText('Unable to send tickets. Please try again later')).toHaveCount(0);
  await expectNoAxeViolations(page, 'tickets transferred');
  await photographBothWidths(page, test.info(), 'transfer-sent', 'docs/screenshots');

  // The recipient's e-mail, and accepting it in their own browser.
  const friend = await browser.newContext();
  const friendPage = await friend.newPage();
  await friendPage.goto(`/dev/mailbox?to=${encodeURIComponent(recipient)}`);
  const mail = friendPage.locator('.mail').filter({ hasText: 'Ada Lovelace sent you a gift' });
  await expect(mail).toHaveCount(1);
  await expect(mail).toContainText(`1 ${FREE_TICKET} ticket for ${FREE_EVENT}`);
  await expect(mail).toContainText('Happy birthday, Grace!');
  const link = /https?:\/\/\S+\/transfers\/accept\/[A-Za-z0-9_-]+\//.exec(
    (await mail.locator('.mail__body').textContent()) ?? '',
  )?.[0];
  expect(link).toBeDefined();
  await friendPage.goto(link!);
  await expect(friendPage.getByRole('heading', { name: 'Ada Lovelace sent you tickets' })).toBeVisible();
  await friendPage.getByRole('button', { name: 'Accept tickets' }).click();
  await expect(friendPage).toHaveURL(/\/account\/wallet\/$/);
  const given = friendPage.locator('.wallet-ticket');
  await expect(given).toHaveCount(1);
  await expect(given.getByRole('heading', { name: FREE_EVENT })).toBeVisible();
  await expect(given.getByText('Grace Hopper', { exact: true })).toBeVisible();
  const code = await given.getAttribute('data-code');
  await friend.close();

  // The buyer keeps the other ticket.
  await page.goto('/account/wallet/');
  const kept = page.locator('.wallet-ticket');
  await expect(kept).toHaveCount(1);
  await expect(kept).not.toHaveAttribute('data-code', code!);
  await expect(kept.getByText(buyer.fullName, { exact: true })).toBeVisible();
});

test('a refusal the server explains is shown in its words, and Back returns to the order', async ({ page }) => {
  test.slow();
  await freeOrderOnDelivery(page, 1);
  await openTransfer(page);
  await page.getByRole('button', { name: new RegExp(`^${SECTION}`) }).click();
  const row = page.getByTestId('transfer-row').first();
  await row.getByRole('button', { name: /One more ticket/ }).click();
  await row.getByLabel('Full name').fill('Sam Okafor');
  await row.getByLabel('Email').fill(`sam-${Date.now().toString(36)}@example.com`);
  await page.route(`**${SET_TRANSFERS}`, (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'Every Free entry ticket of this order has already been transferred.' }),
    }),
  );
  await page.getByRole('button', { name: 'Send tickets' }).click();
  await expect(page.getByText('Every Free entry ticket of this order has already been transferred.')).toBeVisible();
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Transfer tickets' })).toBeVisible();
});
