/**
 * The waiting room in a real browser: a buyer who arrives before the on-sale waits on the queue
 * page (its script solves the proof of work and joins), is let in when the on-sale opens, and
 * reserves; a buyer who comes once the tickets are all held is told the sale is sold out, leaves an
 * e-mail address on the waiting list, and when the tickets are released gets an e-mail whose link,
 * with the one-time code sent to that address, opens a checkout holding them.
 *
 * Demo mode's two queued dates open a few minutes after the server starts; the tests open them at
 * once through demo mode's organiser shortcut (POST /dev/waiting-room/<date>/open/).
 */
import type { Page } from '@playwright/test';
import { basketInUse, expect, expectStep, freshEmail, reserveButton, test } from './support';
import { expectNoAxeViolations } from './a11y';

test.describe.configure({ mode: 'serial' });
// Each test walks two or three buyers through the queue, the basket and the mailbox.
test.setTimeout(180_000);

const SOLD_OUT =
  'Sold out: every ticket is sold or held by another buyer. If held tickets are released, the queue opens again.';

/** From the catalogue to the event's queue page; answers the queued date's id. */
async function toQueue(page: Page, title: string): Promise<number> {
  await page.goto('/all-events/');
  await page.getByRole('link', { name: title }).first().click();
  await expect(page).toHaveURL(/\/queue\/\d+\/$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  return Number(/\/queue\/(\d+)\//.exec(page.url())![1]);
}

async function openOnSale(page: Page, dateId: number): Promise<void> {
  const res = await page.request.post(`/dev/waiting-room/${dateId}/open/`);
  expect(res.status()).toBe(200);
}

/** Admitted: the queue page takes the buyer to the event page, which says until when, where they add and reserve. */
async function reserveAfterQueue(page: Page, title: string, quantity: number, within = 30_000): Promise<void> {
  await expect(page).toHaveURL(/\/event\/\d+\/$/, { timeout: within });
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'It is your turn: you have until' })).toHaveText(
    /^It is your turn: you have until \d\d:\d\d to reserve your tickets\.$/,
  );
  await page.getByLabel('Quantity of Standing', { exact: true }).fill(String(quantity));
  await page.getByRole('button', { name: 'Add to basket' }).click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  await basketInUse(page);
  await reserveButton(page).click();
  await expectStep(page, 'login');
  await expect(page.getByTestId('countdown-clock')).toHaveText(/^(9|10):\d\d$/);
}

test('a buyer waits in the queue before the on-sale, is let in when it opens, and reserves', async ({ page }) => {
  const title = 'Harbour Nights Live: the on-sale';
  const dateId = await toQueue(page, title);
  await expect(page.getByRole('status').filter({ hasText: 'The on-sale opens in' })).toContainText(
    'Everyone here before it opens gets a place in a random order; later arrivals join the end of the line.',
    { timeout: 20_000 },
  );
  await expectNoAxeViolations(page, 'the queue page before the on-sale');
  // A buyer who may leave the page asks to be e-mailed when it is their turn; the page, reloaded, keeps the place.
  await page.getByLabel('E-mail me when it is my turn').fill(freshEmail('turn'));
  await page.getByRole('button', { name: 'E-mail me', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/queue/${dateId}/\\?notify=sent$`));
  await expect(page.getByRole('status').filter({ hasText: 'We will e-mail you when it is your turn.' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'The on-sale opens in' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel('E-mail me when it is my turn')).toBeHidden();
  // The server pushes the opening and the turn to the open page: no waiting for its next poll.
  await openOnSale(page, dateId);
  await reserveAfterQueue(page, title, 1, 10_000);
});

test('a bare HTTP client without the browser check gets no place, and cannot reserve a queued date', async ({
  request,
}) => {
  const catalogue = await (await request.get('/all-events/')).text();
  const eventPath = new RegExp(
    `href="(/event/\\d+/)">(?:(?!</a>)[\\s\\S])*?event-card__title">${'Harbour Nights Live: the on-sale'}<`,
  ).exec(catalogue)![1]!;
  const event = await request.get(eventPath, { maxRedirects: 0 });
  expect(event.status()).toBe(303);
  const queuePath = event.headers().location!;
  const dateId = Number(/\/queue\/(\d+)\//.exec(queuePath)![1]);

  const join = await request.post(`/ajax/queue/${dateId}/join/`, { form: { altcha: '' } });
  expect(join.status()).toBe(403);
  expect(await join.json()).toEqual({ error: 'A place in the queue needs the browser check to be solved first.' });
  const status = await (await request.get(`/ajax/queue/${dateId}/status/`)).json();
  expect(status.state).toBe('no-place');

  // Straight to the basket: refused without an admission, and sent to the queue.
  const typeId = status.ticket_types[0].id as number;
  const added = await request.post('/do/checkout/add/', {
    headers: { accept: 'application/json' },
    form: { [`ticket[0|0|${typeId}|0][ticket]`]: String(typeId), [`ticket[0|0|${typeId}|0][qty]`]: '1' },
  });
  expect(added.status()).toBe(403);
  expect(await added.json()).toEqual({
    error: 'These tickets are sold through a queue. Join it from the event page, and reserve once it is your turn.',
    redirect: `/queue/${dateId}/`,
  });
  const reserve = await request.post('/ajax/checkout/checkout/reserve_tickets/', { form: {} });
  expect(await reserve.json()).toMatchObject({ reserved: false });
});

test('sold out: the queue says so, a buyer joins the waiting list, and released tickets are offered to them by e-mail', async ({
  page,
  browser,
}) => {
  const title = 'Harbour Nights Live: the last two tickets';
  const dateId = await toQueue(page, title);
  await openOnSale(page, dateId);
  await reserveAfterQueue(page, title, 2);

  const other = await browser.newContext();
  const second = await other.newPage();
  await toQueue(second, title);
  await expect(second.getByText(SOLD_OUT)).toBeVisible({ timeout: 30_000 });
  const email = freshEmail('waiting');
  const list = second.locator('[data-queue-list]');
  await list.getByLabel('E-mail address').fill(email);
  await list.getByRole('button', { name: 'Join the waiting list' }).click();
  // The page solves the browser check the list asks for, and says the list's own words.
  await expect(list.getByRole('status')).toContainText(
    'You are number 1 on the waiting list for Standing. If tickets are released, we will e-mail you a link that holds them for you',
  );

  // The first buyer lets their tickets go.
  const released = await page.request.post('/ajax/checkout/checkout/destroy_sale/');
  expect(released.status()).toBe(200);

  const mailbox = await other.newPage();
  await expect(async () => {
    await mailbox.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`);
    await expect(mailbox.getByText(`Tickets for ${title} are held for you`).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const body = await mailbox.locator('pre.mail__body').first().textContent();
  const link = /http:\/\/[^\s]+\/waiting-list\/offer\/[\w-]+\//.exec(body ?? '')![0];
  // The link asks for the code sent to the listed address, then hands this browser the basket the offer holds.
  await mailbox.goto(new URL(link).pathname);
  await expect(mailbox.getByText(/for w•+@/)).toBeVisible();
  await mailbox.getByRole('button', { name: 'E-mail me a code' }).click();
  await expect(mailbox.getByRole('status')).toContainText('We e-mailed a one-time code to w');
  const codePage = await other.newPage();
  await codePage.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`);
  const code = /Your one-time sign in or registration code is (\d{6})/.exec(
    (await codePage.locator('pre.mail__body').first().textContent()) ?? '',
  )![1]!;
  await mailbox.getByLabel('One-time code').fill(code);
  await mailbox.getByRole('button', { name: 'Claim the tickets' }).click();
  await expect(mailbox).toHaveURL(/\/checkout\/$/);
  // Reserving the offer's basket carries on with its hold.
  await basketInUse(mailbox);
  await reserveButton(mailbox).click();
  await expectStep(mailbox, 'login');
  // The hold runs for the offer's own window (the event's setting), not a fresh checkout's.
  await expect(mailbox.getByTestId('countdown-clock')).toHaveText(/^\d{1,2}:\d\d(:\d\d)?$/);
  await other.close();
});
