import type { Locator, Page } from '@playwright/test';
import { advanceTo, expect, test } from './support.ts';
import { findSmallTargets, MIN_TARGET } from './a11y.ts';
import {
  addFromEventPage,
  basketInUse,
  basketLine,
  basketStep,
  expectStep,
  holdCalls,
  reserveButton,
  signInAsNewBuyer,
  urls,
} from './support.ts';

/** The basket on a 360 × 740 phone: what the first screen shows, what the sticky bar covers, what a thumb can hit. */

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b, 'element has a box').not.toBeNull();
  return b!;
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Nothing behind shows through: the element and every ancestor are fully opaque, with a solid background. */
async function expectOpaque(page: Page, locator: Locator) {
  const { opacity, background } = await locator.evaluate((el) => {
    let opacity = 1;
    for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    return { opacity, background: getComputedStyle(el).backgroundColor };
  });
  expect(opacity).toBe(1);
  expect(background).not.toMatch(/rgba\(.*,\s*0(\.\d+)?\)$|transparent/);
}

test('a disabled Reserve Basket is opaque and says why, for a missing ticket, a minimum and a change being saved', async ({
  page,
}) => {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { 'Parking permit': 1 } });
  await expect(reserveButton(page)).toBeDisabled();
  await expectOpaque(page, reserveButton(page));
  await expect(page.getByText('Add the tickets listed above to reserve.')).toBeVisible();
  await expect(reserveButton(page)).toHaveAccessibleDescription('Add the tickets listed above to reserve.');

  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await expect(reserveButton(page)).toBeEnabled();
  await expect(reserveButton(page)).toHaveAccessibleDescription('');

  const server = await holdCalls(page, '/update_ticket_quantity/');
  await basketStep(page).getByRole('button', { name: 'One more 10K entry' }).click();
  await expect(reserveButton(page)).toHaveAccessibleDescription('Saving your changes…');
  await expect(page.getByText('Saving your changes…')).toBeVisible();
  await expectOpaque(page, reserveButton(page));
  server.release();
  await expect(reserveButton(page)).toBeEnabled({ timeout: 15_000 });
});

test('a line below its minimum says so beside the disabled Reserve Basket', async ({ page }) => {
  await addFromEventPage(page, 'The Lantern: Friday Late Show', { tickets: { 'Cabaret table (pairs)': 2 } });
  const quantity = basketStep(page).getByRole('spinbutton', { name: /Cabaret table/ });
  await quantity.fill('1');
  await quantity.blur();
  await expect(reserveButton(page)).toBeDisabled();
  await expect(reserveButton(page)).toHaveAccessibleDescription('Some tickets are below their minimum quantity.');
  await expectOpaque(page, reserveButton(page));
});

test('the first screen shows the total, and the bar covers neither the chosen refund protection nor the focused control', async ({
  page,
}) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
  const yes = basketStep(page).getByRole('radio', { name: /^yes/i });
  // Shown chosen at once; reloaded only once the server has it.
  const saved = page.waitForResponse((r) => r.url().includes('/update_refund_protection/') && r.ok());
  await yes.click();
  await expect(yes).toBeChecked();
  await saved;
  await page.reload();
  // Measured once the app has drawn the basket over the server's first paint, which it replaces.
  await basketInUse(page);
  await expect(yes).toBeChecked();
  await page.evaluate(() => window.scrollTo(0, 0));

  const viewport = { x: 0, y: 0, width: 360, height: 740 };
  const bar = await box(reserveButton(page).locator('xpath=..'));
  const total = await page.getByTestId('summary-total').textContent();
  const shownTotal = page.locator('.reserve-bar').getByText(total ?? '', { exact: true });
  await expect(shownTotal).toBeVisible();
  expect(overlaps(await box(shownTotal), viewport), 'the total is on the first screen').toBe(true);

  // The chosen card is either clear of the bar or not on the first screen at all.
  const chosen = yes.locator('xpath=ancestor::label');
  const card = await box(chosen);
  if (overlaps(card, viewport)) expect(overlaps(card, bar), 'the bar covers the chosen refund protection').toBe(false);

  // Reached with the keyboard, it scrolls clear of the bar.
  await yes.focus();
  expect(overlaps(await box(chosen), bar), 'the bar covers the focused choice').toBe(false);
  await basketStep(page).getByRole('button', { name: 'Refund policy' }).focus();
  expect(overlaps(await box(basketStep(page).getByRole('button', { name: 'Refund policy' })), bar)).toBe(false);
});

test('Continue shopping shows each event’s caption whole', async ({ page }) => {
  await addFromEventPage(page, 'The Lantern: Friday Late Show', { tickets: { 'Standard seat': 1 } });
  const cards = basketStep(page).getByRole('region', { name: 'Continue shopping' }).locator('.event-card__text > *');
  await expect(cards.first()).toBeVisible();
  const cut = await cards.evaluateAll((els) =>
    els
      .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > innerWidth)
      .map((el) => el.textContent),
  );
  expect(cut, 'captions cut off').toEqual([]);
});

test('the basket’s buttons and links are thumb-sized: −, +, Remove, Refund policy, (non-refundable)', async ({
  page,
}) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', {
    tickets: { 'General admission': 2, 'Riverside table seat': 1 },
  });
  const line = basketLine(page, 'General admission');
  for (const target of [
    line.getByRole('button', { name: 'One fewer General admission' }),
    line.getByRole('button', { name: 'One more General admission' }),
    line.getByRole('spinbutton', { name: 'Quantity of General admission' }),
    line.getByRole('button', { name: /Remove/ }),
    line.getByRole('button', { name: 'Refund policy' }),
    basketStep(page).getByRole('link', { name: '(non-refundable)' }),
  ]) {
    const b = await box(target);
    expect(Math.round(b.width), `${await target.textContent()} width`).toBeGreaterThanOrEqual(MIN_TARGET);
    expect(Math.round(b.height), `${await target.textContent()} height`).toBeGreaterThanOrEqual(MIN_TARGET);
  }
  expect(await findSmallTargets(page)).toEqual([]);
});

test('Edit basket on a later step is thumb-sized', async ({ page }) => {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await reserveButton(page).click();
  await expectStep(page, 'login');
  await page.getByRole('button', { name: /show summary/i }).click();
  const edit = page.getByRole('button', { name: 'Edit basket' });
  expect(Math.round((await box(edit)).height)).toBeGreaterThanOrEqual(MIN_TARGET);
});

test.describe('with a captcha', () => {
  test.use({ baseURL: urls.captcha });

  test('the captcha box and its label make one thumb-sized target', async ({ page }) => {
    await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
    await reserveButton(page).click();
    await expectStep(page, 'captcha');
    const checkbox = page.locator('altcha-widget input[type="checkbox"]');
    await expect(checkbox).toBeVisible();
    const target = await checkbox.evaluate((el) => {
      const rects = [el, ...((el as HTMLInputElement).labels ?? [])].map((e) => e.getBoundingClientRect());
      const top = Math.min(...rects.map((r) => r.top));
      const bottom = Math.max(...rects.map((r) => r.bottom));
      const left = Math.min(...rects.map((r) => r.left));
      const right = Math.max(...rects.map((r) => r.right));
      return { width: right - left, height: bottom - top, box: (el as HTMLElement).getBoundingClientRect().height };
    });
    expect(target.box).toBeGreaterThanOrEqual(28);
    expect(Math.round(target.height)).toBeGreaterThanOrEqual(MIN_TARGET);
    expect(Math.round(target.width)).toBeGreaterThanOrEqual(MIN_TARGET);
  });
});

for (const [basket, event, wanted] of [
  ['ready to reserve', 'Summer Jazz on the Quay', { 'General admission': 1 }],
  ['with the reason Reserve Basket is disabled', 'Castleton Trail Run', { 'Parking permit': 1 }],
] as const) {
  test(`at the bottom of the basket ${basket} the sticky bar leaves every footer link in sight and clickable`, async ({
    page,
  }) => {
    await addFromEventPage(page, event, { tickets: wanted });
    await expect(page.locator('.reserve-bar__reason')).toHaveCount(basket.startsWith('with') ? 1 : 0);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect
      .poll(() => page.evaluate(() => Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight))
      .toBe(true);

    const bar = await box(page.locator('.reserve-bar'));
    const links = page
      .locator('footer.site-footer')
      .getByRole('navigation', { name: 'Policies and more' })
      .getByRole('link');
    await expect(links).toHaveCount(4);
    for (const link of await links.all()) {
      const name = (await link.textContent()) ?? '';
      const b = await box(link);
      expect(overlaps(b, bar), `the bar covers ${name}`).toBe(false);
      const hit = await link.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return at !== null && el.contains(at);
      });
      expect(hit, `${name} is what is under its centre`).toBe(true);
      await link.click({ trial: true });
    }

    const terms = links.filter({ hasText: 'Purchase terms' });
    await terms.click();
    await expect(page).toHaveURL(/\/legal-information\/purchase-terms-and-conditions\/$/);
  });
}

test('with tickets in the basket the header fits the phone’s width: no page scrolls sideways', async ({ page }) => {
  await addFromEventPage(page, 'The Lantern: Friday Late Show', { tickets: { 'Standard seat': 1 } });
  await expect(page.getByTestId('basket-count')).toBeVisible();
  for (const path of ['/checkout/', '/all-events/']) {
    await page.goto(path);
    await expect(page.getByTestId('basket-count')).toBeVisible();
    const width = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: innerWidth }));
    expect(width.page, `${path} is wider than the screen`).toBeLessThanOrEqual(width.screen);
    const brand = page.getByRole('link', { name: 'Holdfast' }).first();
    await expect(brand).toBeVisible();
  }
});

test('a press of Pay just after typing in a field is not lost when the field’s message would appear: every problem shows', async ({
  page,
}) => {
  await signInAsNewBuyer(page);
  await addFromEventPage(page, 'Ashcombe Winter Lantern Trail', { tickets: { 'Adult (5pm entry)': 1 } });
  await reserveButton(page).click();
  await advanceTo(page, 'payment');
  // A wrong contact number typed, then Pay pressed straight away: the press is not lost to the
  // number's message moving the button, and it checks every field.
  await page.getByLabel('Contact number (optional)').fill('12ab');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByText('Type a valid phone number')).toBeVisible();
  await expect(page.getByText('Type your postcode or zip code')).toBeVisible();
});
