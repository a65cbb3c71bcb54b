/**
 * The organiser's console in a real browser: Olivia Organiser (Harbour Nights Promotions, demo
 * mode's queued on-sales) signs in with a one-time code, sets up the on-sale of a queued date, watches
 * its chart and figures move as buyers queue, opens it, pauses and resumes admission, and exports the
 * waiting list; axe finds nothing on the console.
 *
 * On the Stripe server, whose demo on-sales no other test touches, so the on-sale opened here opens
 * for nobody else's test.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { expectNoAxeViolations } from './a11y';
import { codeFromMailbox, expect, photographBothWidths, test, urls } from './support';

test.describe.configure({ mode: 'serial' });
test.setTimeout(150_000);
test.use({ baseURL: urls.stripe });

const OLIVIA = 'olivia.organiser@example.com';
const TITLE = 'Harbour Nights Live: the on-sale';

/** A buyer in a browser of their own, on the date's queue page: its script solves the browser check and takes a place. */
async function buyerQueues(browser: Browser, dateId: number): Promise<Page> {
  const context = await browser.newContext({ baseURL: urls.stripe });
  const page = await context.newPage();
  await page.goto(`/queue/${dateId}/`);
  await expect(page.getByRole('status').filter({ hasText: 'The on-sale opens in' })).toBeVisible({ timeout: 30_000 });
  return page;
}

const figure = (page: Page, key: string) => page.locator(`[data-figure="${key}"]`);

test('an organiser sets up an on-sale, watches buyers queue, opens, pauses and resumes it, and exports the waiting list', async ({
  page,
  context,
  browser,
}, testInfo) => {
  await page.goto('/organiser/');
  await expect(page.getByRole('alert')).toHaveText(
    'Sign in with the account that runs this organiser’s on-sales to use the console.',
  );
  await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email address').fill(OLIVIA);
  await page.getByRole('button', { name: 'Send code', exact: true }).click();
  await page.getByLabel('One-time code').fill(await codeFromMailbox(context, OLIVIA));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page).toHaveURL(/\/organiser\/$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Harbour Nights Promotions' })).toBeVisible();

  await page.getByRole('link', { name: TITLE }).click();
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  const dateId = Number(/\/organiser\/dates\/(\d+)\//.exec(page.url())![1]);

  // Set up: the on-sale an hour from now (the date's time, in London), 30 a minute, 20 shopping at once.
  const inAnHour = await page.evaluate(() => {
    const f = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/London',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const p = Object.fromEntries(f.formatToParts(new Date(Date.now() + 3600_000)).map((x) => [x.type, x.value]));
    return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
  });
  await page.getByLabel('On-sale time (Europe/London)').fill(inAnHour);
  await page.getByLabel('Admissions a minute', { exact: true }).fill('30');
  await page.getByLabel('Most shoppers at once').fill('20');
  await page.getByLabel('Minutes each admitted buyer has to reserve').fill('10');
  await page.getByRole('button', { name: 'Save the settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The on-sale is set up.' })).toBeVisible();
  await expect(page.locator('[data-audit]')).toContainText('Changed the on-sale: opens');
  await expect(figure(page, 'state')).toHaveText('Not open yet');

  // Buyers queue; the console's figures and chart follow without a reload.
  const samplesBefore = Number(await page.locator('.console-chart').getAttribute('data-samples'));
  const buyers = [await buyerQueues(browser, dateId), await buyerQueues(browser, dateId)];
  await expect(figure(page, 'waiting')).toHaveText('2', { timeout: 15_000 });
  await expect
    .poll(async () => Number(await page.locator('.console-chart').getAttribute('data-samples')), { timeout: 15_000 })
    .toBeGreaterThan(samplesBefore);
  await expect(page.locator('.console-chart polyline[data-series="waiting"]')).toBeVisible();
  await expect(page.locator('.console-chart')).toHaveAttribute('aria-label', /queue length now 2/);

  await page.getByRole('button', { name: 'Open now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The on-sale is open' })).toBeVisible();
  // At 30 a minute both are let in within a few seconds, and their pages send them on to the tickets.
  await expect(figure(page, 'waiting')).toHaveText('0', { timeout: 20_000 });
  await expect(figure(page, 'admitted')).toHaveText('2', { timeout: 10_000 });
  for (const buyer of buyers) await expect(buyer).toHaveURL(/\/event\/\d+\/$/, { timeout: 30_000 });

  await page.getByRole('button', { name: 'Pause admission' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Admission is paused.' })).toBeVisible();
  await expect(figure(page, 'state')).toHaveText('Paused');
  // A buyer waiting while admission is paused sees the organiser's message arrive on their open page.
  const late = await browser.newPage({ baseURL: urls.stripe });
  await late.goto(`/queue/${dateId}/`);
  await expect(late.getByRole('status').filter({ hasText: /in the queue/ })).toBeVisible({ timeout: 30_000 });
  await expect(late.getByText('From the organiser:')).toBeHidden();
  await page
    .getByLabel('Message on every waiting page (empty for none)')
    .fill('We are checking the doors: your place is kept.');
  await page.getByRole('button', { name: 'Send the message' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The message to waiting buyers is changed.' })).toBeVisible();
  await expect(late.getByText('From the organiser: We are checking the doors: your place is kept.')).toBeVisible({
    timeout: 10_000,
  });
  await late.close();

  await page.getByRole('button', { name: 'Resume admission' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Admission has resumed.' })).toBeVisible();
  await expect(figure(page, 'state')).toHaveText('Open');
  const trail = page.locator('[data-audit]');
  for (const action of [
    'Opened the on-sale now',
    'Paused admission',
    'Changed the message to waiting buyers',
    'Resumed admission',
  ])
    await expect(trail).toContainText(action);
  await expect(trail).toContainText('Olivia Organiser (olivia.organiser@example.com)');

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export the Standing waiting list (CSV)' }).click();
  const csv = readFileSync((await (await download).path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('position,email,quantity,joined,status,offered,offer ends');

  await expectNoAxeViolations(page, 'the organiser console');
  await photographBothWidths(page, testInfo, 'organiser-console', 'docs/screenshots');
  await page.setViewportSize({ width: 360, height: 740 });
  await expectNoAxeViolations(page, 'the organiser console on a phone');
  // Nothing wider than the phone: the page scrolls only downwards.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
