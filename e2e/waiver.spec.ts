/**
 * The waiver step through the real app and server (spec 001 §2 "Waiver (Activity Terms and
 * Conditions)", the route `/activity-terms-and-conditions/{sale_reference}/`, §4 next-step rules,
 * §8 'Link copied'): a buyer of the Treetop Ropes Course, whose organiser wrote activity terms,
 * meets the step once the tickets are delivered, copies the waiver link, shares it, reads the terms
 * it opens (with no session, as a friend it was sent to would), and continues to order completed.
 */
import type { Page } from '@playwright/test';
import { continueUntil, newBuyer } from './freeOrder.ts';
import { addFromEventPage, expect, expectStep, photographBothWidths, reserveButton, test } from './support.ts';

const EVENT = 'Ashcombe Treetop Ropes Course';
const TICKET = 'Taster climb';
const TITLE = 'Activity terms and conditions';
const TERMS = 'Participants must be at least 8 years old and 1.2 m tall';

/** A new buyer of a free taster climb, on the waiver step. */
async function reachWaiver(page: Page) {
  const buyer = newBuyer();
  await page.clock.install();
  await addFromEventPage(page, EVENT, { tickets: { [TICKET]: 1 } });
  await reserveButton(page).click();
  await continueUntil(page, buyer, 'waiver');
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
}

const waiverLink = (page: Page) => page.getByRole('link', { name: /Read the activity terms and conditions/ });

test('a buyer of an activity copies the waiver link, reads the terms it opens and continues to order completed', async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.slow();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await reachWaiver(page);

  const reference = await page.evaluate(
    async () =>
      ((await (await fetch('/ajax/checkout/checkout/get/')).json()) as { sale_reference: string }).sale_reference,
  );
  const link = `${baseURL}/activity-terms-and-conditions/${reference}/`;
  await expect(waiverLink(page)).toHaveAttribute('href', link);
  await expect(page.getByLabel('Waiver link')).toHaveValue(link);
  await photographBothWidths(page, testInfo, 'waiver');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Copy link: the clipboard holds the link, and the buyer is told so.
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // The link opens the terms in a new tab.
  const [terms] = await Promise.all([page.waitForEvent('popup'), waiverLink(page).click()]);
  await expect(terms.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(terms.getByRole('heading', { level: 2, name: EVENT })).toBeVisible();
  await expect(terms.getByText(TERMS)).toBeVisible();
  await photographBothWidths(terms, testInfo, 'waiver-page');
  await terms.close();

  // Whoever it is sent to reads the same terms without the buyer's session.
  const friend = await page.context().browser()!.newContext();
  const friendsPage = await friend.newPage();
  await friendsPage.goto(link);
  await expect(friendsPage.getByText(TERMS)).toBeVisible();
  await expect(friendsPage.getByText(reference)).toHaveCount(0);
  await friendsPage.goto(`${baseURL}/activity-terms-and-conditions/HF-ZZZZZZZZ/`);
  await expect(friendsPage.getByText('There are no activity terms and conditions for this reference.')).toBeVisible();
  await friend.close();

  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'order_completed');
  await expect(page.getByText('Order complete! Your tickets are on their way.')).toBeVisible();
});

test('share opens the device’s share sheet with the waiver link; without one the link goes by e-mail', async ({
  page,
  baseURL,
}) => {
  test.slow();
  // A browser with a share sheet: what it is given is recorded.
  await page.addInitScript(() => {
    const shared: ShareData[] = [];
    Object.assign(window, { __shared: shared });
    Object.defineProperty(navigator, 'share', {
      value: (data: ShareData) => (shared.push(data), Promise.resolve()),
      configurable: true,
    });
  });
  await reachWaiver(page);
  const href = await waiverLink(page).getAttribute('href');
  expect(href).toMatch(new RegExp(`^${baseURL}/activity-terms-and-conditions/HF-[A-Z2-9]{8}/$`));
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __shared: ShareData[] }).__shared))
    .toEqual([{ title: TITLE, url: href }]);

  // Headless Chromium has no share sheet: the same screen offers the link by e-mail instead.
  const withoutSheet = await page.context().newPage();
  await withoutSheet.addInitScript(() => {
    Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
  });
  await withoutSheet.goto('/checkout/');
  await expectStep(withoutSheet, 'waiver');
  await expect(withoutSheet.getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);
  await expect(withoutSheet.getByRole('link', { name: 'Share by e-mail' })).toHaveAttribute(
    'href',
    `mailto:?subject=${encodeURIComponent(TITLE)}&body=${encodeURIComponent(href!)}`,
  );
});
