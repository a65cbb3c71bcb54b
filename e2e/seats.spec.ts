/**
 * The seat-selection page in a real browser against the real server: seats chosen with the mouse and
 * with the keyboard alone, each rule's refusal in words, the list mode, adding to the basket (the
 * ticket lines show their seats), reserving, an axe scan, and the screenshots of the README.
 * Each test uses its own rows, so tests running side by side never want the same seats.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectStep, photograph, reserveButton, test } from './support.ts';
import { expectNoAxeViolations } from './a11y.ts';

const EVENT = 'Twelfth Night at the Harbour Playhouse';

/** From the catalogue to the seat page, as a newcomer goes: the event, then its seating plan. */
async function openSeatPage(page: Page, loads = true): Promise<void> {
  await page.goto('/all-events/');
  await page.getByRole('link', { name: EVENT }).first().click();
  await page.getByRole('link', { name: /^Choose your seats for/ }).click();
  await expect(page).toHaveURL(/\/events\/book_seats\/\d+\/$/);
  if (loads) await expect(page.getByRole('heading', { level: 1, name: EVENT })).toBeVisible();
}

const seat = (page: Page, name: string) => page.getByRole('checkbox', { name: new RegExp(`^${name}, `) });
const refusal = (page: Page) => page.locator('.seat-page__notes');
const selected = (page: Page) => page.getByRole('complementary', { name: 'Selected Seats:' });

test('the seat page’s own styles apply over the design’s base: the map tools keep their compact size', async ({
  page,
}) => {
  await openSeatPage(page);
  const zoomIn = page.getByRole('button', { name: 'Zoom in' });
  // .seat-map__tool (seats.css) sets the padding over .button (styles.css), which must come first.
  await expect(zoomIn).toHaveCSS('padding', '6px 12px');
  await expect(zoomIn).toHaveCSS('min-height', '40px');
});

test('a buyer chooses seats with the mouse, meets each rule, adds them and reserves them', async ({ page }) => {
  await openSeatPage(page);
  await expect(page.getByRole('button', { name: 'Add To Basket!' })).toBeDisabled();

  await seat(page, 'Stalls, row E, seat 1').click();
  await expect(seat(page, 'Stalls, row E, seat 1')).toHaveAttribute('aria-checked', 'true');
  await expect(seat(page, 'Stalls, row E, seat 1')).toHaveAccessibleName('Stalls, row E, seat 1, £25.00, selected');
  await seat(page, 'Stalls, row E, seat 2').click();
  await expect(selected(page).getByRole('listitem')).toHaveText([
    /Stalls-E-1\s*£25\s*Stalls/,
    /Stalls-E-2\s*£25\s*Stalls/,
  ]);
  await expect(selected(page)).toContainText('Total £50');

  // Each rule, refused in words next to the chart, with nothing asked of the server.
  await seat(page, 'Stalls, row E, seat 4').click();
  await expect(refusal(page)).toHaveText(
    'Your seats in Stalls, row E must be next to each other, with no gap between them.',
  );
  await seat(page, 'Stalls, row G, seat 2').click();
  await expect(refusal(page)).toHaveText(
    'That would leave Stalls, row G, seat 1 empty on its own. Choose seats that leave no single empty seat.',
  );
  // Seats that cannot be chosen say so (aria-disabled) and still answer a press, in words.
  await seat(page, 'Stalls, row C, seat 5').click({ force: true });
  await expect(refusal(page)).toHaveText('Stalls, row C, seat 5 is taken by another buyer.');
  await expect(page.getByRole('button', { name: 'Zoom out' })).toBeDisabled();
  await seat(page, 'Circle, row D, seat 1').click({ force: true });
  await expect(refusal(page)).toHaveText('Circle, row D, seat 1 has no price yet, so it cannot be chosen.');
  await expect(selected(page).getByRole('listitem')).toHaveCount(2);

  // Giving back the first seat would leave it alone at the row end; the second goes back.
  await seat(page, 'Stalls, row E, seat 1').click();
  await expect(refusal(page)).toHaveText(
    'That would leave Stalls, row E, seat 1 empty on its own. Choose seats that leave no single empty seat.',
  );
  await seat(page, 'Stalls, row E, seat 2').click();
  await expect(seat(page, 'Stalls, row E, seat 2')).toHaveAttribute('aria-checked', 'false');
  await seat(page, 'Stalls, row E, seat 2').click();
  await expect(selected(page)).toContainText('Total £50');

  await page.getByRole('button', { name: 'Add To Basket!' }).click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  const line = page.locator('[data-step="basket"]').getByRole('listitem').filter({ hasText: 'Stalls' }).first();
  await expect(line).toContainText('Stalls, row E, seat 1');
  await expect(line).toContainText('Stalls, row E, seat 2');
  await reserveButton(page).click();
  await expectStep(page, 'login');
  await expect(page.getByTestId('countdown-clock')).toHaveText(/^(9|10):\d\d$/);
});

test('a buyer chooses seats with the keyboard alone and adds them', async ({ page }) => {
  await openSeatPage(page);
  // Tab into the chart: one seat is in the tab order, the first available one.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.hasAttribute('data-seat') ?? false)) break;
  }
  await expect(page.locator(':focus')).toHaveAccessibleName('Stalls, row A, seat 1, £32.50, available');
  await page.keyboard.press('Space');
  await expect(seat(page, 'Stalls, row A, seat 1')).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator(':focus')).toHaveAccessibleName('Stalls, row A, seat 2, £32.50, available');
  await page.keyboard.press('Enter');
  await expect(seat(page, 'Stalls, row A, seat 2')).toHaveAttribute('aria-checked', 'true');
  // Down a row, to the nearest seat: B2 would leave B1 alone, and the page says so.
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(':focus')).toHaveAccessibleName(/^Stalls, row B, seat 2, /);
  await page.keyboard.press('Space');
  await expect(refusal(page)).toHaveText(
    'That would leave Stalls, row B, seat 1 empty on its own. Choose seats that leave no single empty seat.',
  );
  await expect(selected(page)).toContainText('Total £65');

  // On to the button by keyboard.
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if ((await page.locator(':focus').textContent()) === 'Add To Basket!') break;
  }
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/checkout\/$/);
  const line = page.locator('[data-step="basket"]').getByRole('listitem').filter({ hasText: 'Stalls premium' }).first();
  await expect(line).toContainText('Stalls, row A, seat 1');
  await expect(line).toContainText('Stalls, row A, seat 2');
});

test('the list mode offers the same choice as a table, and the page passes an axe scan', async ({ page }) => {
  // Three axe scans of the whole plan and two full-page screenshots: on a busy two-core machine this
  // has taken from 30 s to over a minute.
  test.slow();
  await openSeatPage(page);
  await expectNoAxeViolations(page, 'the seat map');
  await page.getByRole('button', { name: 'List' }).click();
  await page.getByRole('button', { name: 'Choose Circle, row A, seat 1, £18.00, available' }).click();
  await expect(page.getByRole('button', { name: 'Remove Circle, row A, seat 1, £18.00, selected' })).toBeVisible();
  await page.getByRole('button', { name: 'Choose Circle, row A, seat 3, £18.00, available' }).click();
  await expect(refusal(page)).toHaveText(
    'Your seats in Circle, row A must be next to each other, with no gap between them.',
  );
  await page.getByRole('button', { name: 'Choose Circle, row A, seat 2, £18.00, available' }).click();
  await expect(selected(page)).toContainText('Total £36');
  await expectNoAxeViolations(page, 'the seat list');
  await page.getByRole('button', { name: 'Map' }).click();
  await expect(seat(page, 'Circle, row A, seat 2')).toHaveAttribute('aria-checked', 'true');

  mkdirSync('docs/screenshots', { recursive: true });
  await photograph(page, 'docs/screenshots/desktop-seats.png', { fullPage: true });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(page.getByRole('button', { name: 'Whole plan' })).toBeEnabled();
  await photograph(page, 'docs/screenshots/phone-seats.png', { fullPage: true });
  await expectNoAxeViolations(page, 'the seat map on a phone');
});

test('a seating plan that cannot be read shows the server’s message', async ({ page }) => {
  await page.route('**/get_current_seating_plan/**', (route) =>
    route.fulfill({ status: 503, json: { error: 'The seating plan is being updated. Please try again in a minute.' } }),
  );
  await openSeatPage(page, false);
  await expect(page.getByRole('alert')).toHaveText('The seating plan is being updated. Please try again in a minute.');
});

test('a seat another buyer holds is refused by the server, in words', async ({ page, browser }) => {
  await openSeatPage(page);
  const other = await browser.newPage();
  await other.goto(page.url());
  await seat(other, 'Stalls, row H, seat 1').click();
  await expect(seat(other, 'Stalls, row H, seat 1')).toHaveAttribute('aria-checked', 'true');
  // This page read the plan before: the seat still looks free here, and the server says no.
  await seat(page, 'Stalls, row H, seat 1').click();
  await expect(refusal(page)).toHaveText('Stalls, row H, seat 1 is taken by another buyer.');
  await expect(seat(page, 'Stalls, row H, seat 1')).toHaveAccessibleName('Stalls, row H, seat 1, £25.00, unavailable');
  await other.close();
});
