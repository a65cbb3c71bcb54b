/**
 * The checkout and the server's pages in the right-to-left pseudo-locale (ar-XB, docs/i18n.md):
 * every screen a buyer meets, from the catalogue to the wallet and the account, is laid out right
 * to left (`dir="rtl"`), fits a 360 px phone and a 1280 px desktop without scrolling sideways or
 * leaving anything past either edge of the screen, and passes axe with the rules the accessibility
 * spec uses. The walks find fields and buttons by what they are, not by their words, as the words
 * are mirrored.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { DELIVERY_ADVANCE_DELAY_MS, DELIVERY_START_DELAY_MS } from '../contract/delivery.ts';
import { animationsFinished, DESKTOP_VIEWPORT, expectNoAxeViolations, PHONE_VIEWPORT } from './a11y.ts';
import { FREE_EVENT, FREE_TICKET, newBuyer } from './freeOrder.ts';
import {
  addFromEventPage,
  expect,
  expectStep,
  photograph,
  signInAsNewBuyer,
  test,
  urls,
  type Wanted,
} from './support.ts';

/** Tickets of an event whose charity asks for a donation; no gift voucher, which would ask for a postal address. */
const JAZZ = { tickets: { 'General admission': 2, 'Riverside table seat': 1 } };

/** Chooses the right-to-left pseudo-locale as the footer's picker would (its cookie). */
async function rightToLeft(page: Page): Promise<void> {
  await page.context().addCookies([{ name: 'hf_lang', value: 'ar-XB', url: urls.main }]);
}

/**
 * Every visible element whose box runs past the left or right edge of the screen, but for what an
 * ancestor clips (a box that scrolls sideways of its own, a hidden overflow) and what is visually
 * hidden (1 px and clipped, for screen readers). Only the outermost of a run of offenders is named.
 */
async function pastTheEdges(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipsX = (el: Element) => {
      const s = getComputedStyle(el);
      return s.overflowX !== 'visible' || s.contain.includes('paint');
    };
    const hidden = (el: Element) => {
      const s = getComputedStyle(el);
      return s.clip === 'rect(0px, 0px, 0px, 0px)' || s.clipPath === 'inset(50%)' || s.clipPath === 'inset(100%)';
    };
    const describe = (el: Element) => {
      const path: string[] = [];
      for (let e: Element | null = el; e && e !== document.body && path.length < 3; e = e.parentElement) {
        const classes = [...e.classList]
          .slice(0, 2)
          .map((c) => `.${c}`)
          .join('');
        path.unshift(`${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${classes}`);
      }
      const text = (el.textContent ?? '')
        .replace(/[\u202a-\u202e\s]+/g, ' ')
        .trim()
        .slice(0, 50);
      return path.join(' > ') + (text ? ` "${text}"` : '');
    };
    const offending = new Set<Element>();
    const found: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      let left = r.left,
        right = r.right,
        clipped = false;
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        if (hidden(a)) {
          clipped = true;
          break;
        }
        if (a === document.body || !clipsX(a)) continue;
        const c = a.getBoundingClientRect();
        left = Math.max(left, c.left);
        right = Math.min(right, c.right);
      }
      if (clipped || hidden(el) || right - left < 1) continue;
      if (left >= -1 && right <= width + 1) continue;
      offending.add(el);
      if (el.parentElement && offending.has(el.parentElement)) continue;
      found.push(`${describe(el)}: ${Math.round(r.left)} to ${Math.round(r.right)} of ${width} px`);
    }
    return found.slice(0, 20);
  });
}

/**
 * The page as it is now, right to left at 360 px and at 1280 px: `dir="rtl"`, no sideways scroll,
 * nothing past either edge, and no axe violations. When photographs are asked for, each width's
 * picture goes into the test's output.
 */
async function expectRightToLeft(page: Page, screen: string): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  for (const viewport of [PHONE_VIEWPORT, DESKTOP_VIEWPORT]) {
    const at = `${screen} at ${viewport.width} px`;
    await page.setViewportSize(viewport);
    await animationsFinished(page);
    const scroll = await page.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
    });
    expect.soft(scroll.scrollWidth, `sideways scroll on ${at}`).toBeLessThanOrEqual(scroll.clientWidth + 1);
    const offenders = await pastTheEdges(page);
    expect.soft(offenders, `past the screen's edges on ${at}:\n${offenders.join('\n')}`).toEqual([]);
    await photograph(page, test.info().outputPath(`${screen.replace(/\W+/g, '-')}-${viewport.width}.png`), {
      fullPage: true,
    });
    await expectNoAxeViolations(page, `${screen}, right to left, at ${viewport.width} px`);
  }
  await page.setViewportSize(PHONE_VIEWPORT);
}

/** The newest e-mail of the demo mailbox to `email` whose subject has a one-time code: the code. */
async function codeMailedTo(context: BrowserContext, email: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const text = await (await context.request.get(`/dev/mailbox?to=${encodeURIComponent(email)}`)).text();
    const code = /<h2 class="mail__subject">[^<]*?\b(\d{6})\b/.exec(text)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no one-time code mailed to ${email}`);
}

/** The basket's Reserve button and each later step's own button, found by what they are. */
const reserve = (page: Page) => page.locator('[data-step="basket"] button.reserve-button');
const stepButton = (page: Page, step: string) => page.locator(`[data-step="${step}"] button.button--block`);

/**
 * A buyer signed in before choosing the locale (the demo mailbox's code is read in English), with
 * `wanted` reserved, through sign-in and Keep updated as they are, on `step`.
 */
async function signedInBuyerAt(page: Page, event: string, wanted: Wanted, step: string): Promise<void> {
  await signInAsNewBuyer(page);
  await rightToLeft(page);
  await addFromEventPage(page, event, wanted);
  await reserve(page).click();
  // Signed in, each step on the way is left with its main button (the account as it is, Keep updated
  // as it is, any other step of the flow); the reservation and a free payment move on by themselves.
  const shown = page.locator('[data-step]:not([inert])').first();
  for (;;) {
    await expect(shown).toBeVisible();
    const at = (await shown.getAttribute('data-step'))!;
    if (at === step) return;
    if (!['basket', 'reserve', 'payment'].includes(at)) await stepButton(page, at).click();
    await expect(page.locator(`[data-step="${at}"]`)).toHaveCount(0);
  }
}

test.describe('right to left', () => {
  test('the catalogue, an event page and sign-in', async ({ page }) => {
    await rightToLeft(page);
    await page.goto('/all-events/');
    await expect(page.getByRole('link', { name: 'Summer Jazz on the Quay' }).first()).toBeVisible();
    await expectRightToLeft(page, 'all events');
    await page.getByRole('link', { name: 'Summer Jazz on the Quay' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Summer Jazz on the Quay' })).toBeVisible();
    await expectRightToLeft(page, 'an event page');
    await page.goto('/signin/');
    await expect(page.locator('input[name="email"]').first()).toBeVisible();
    await expectRightToLeft(page, 'sign-in');
  });

  test('a newcomer from the basket through sign-in, the donation and Keep updated to payment', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    const buyer = newBuyer();
    await rightToLeft(page);
    await addFromEventPage(page, 'Summer Jazz on the Quay', JAZZ);
    await expectRightToLeft(page, 'basket');
    await reserve(page).click();

    // The steps before payment, in the order the checkout gives them (a charity's donation may come
    // first); the reservation moves on by itself, and a step not named here is left with its main button.
    const shown = page.locator('[data-step]:not([inert])').first();
    const seen: string[] = [];
    for (;;) {
      await expect(shown).toBeVisible();
      const step = (await shown.getAttribute('data-step'))!;
      if (step === 'payment') break;
      const screen = page.locator(`[data-step="${step}"]`);
      if (step === 'basket' || step === 'reserve') {
        await expect(screen).toHaveCount(0);
        continue;
      }
      seen.push(step);
      if (step !== 'login' && step !== 'donation' && step !== 'marketing_preferences') {
        await expectRightToLeft(page, step);
        await stepButton(page, step).click();
      } else if (step === 'donation') {
        await expectRightToLeft(page, 'donation');
        await screen.locator('button.donation__skip').click();
      } else if (step === 'marketing_preferences') {
        await expectRightToLeft(page, 'Keep updated');
        await stepButton(page, step).click();
      } else {
        await expect(screen.locator('input[name="email"]')).toBeVisible();
        await expectRightToLeft(page, 'sign-in step');
        await screen.locator('input[name="email"]').fill(buyer.email);
        await stepButton(page, step).click();
        await expect(screen.locator('input[name="code"]')).toBeVisible();
        await expectRightToLeft(page, 'one-time code');
        await screen.locator('input[name="code"]').fill(await codeMailedTo(context, buyer.email));
        await stepButton(page, step).click();
        await expect(screen.locator('input[name="fullname"]')).toBeVisible();
        await expectRightToLeft(page, 'full name');
        await screen.locator('input[name="fullname"]').fill(buyer.fullName);
        await stepButton(page, step).click();
      }
      await expect(screen).toHaveCount(0);
    }
    expect(seen).toEqual(expect.arrayContaining(['login', 'donation', 'marketing_preferences']));
    await expectStep(page, 'payment');
    await expect(page.locator('[data-step="payment"] input[autocomplete="billing given-name"]')).toBeVisible();
    await expectRightToLeft(page, 'payment');
    await page.evaluate(() => window.scrollTo(0, 0));
    await photograph(page, 'docs/screenshots/rtl-payment-form-phone.png');
  });

  test('ticket questions', async ({ page }) => {
    await signedInBuyerAt(
      page,
      'Ashcombe Winter Lantern Trail',
      { tickets: { 'Adult (5pm entry)': 1, 'Child (5pm entry)': 1 } },
      'ticket_questions_before',
    );
    await expect(page.locator('[data-step="ticket_questions_before"] form')).toBeVisible();
    await expectRightToLeft(page, 'ticket questions');
  });

  test('the delivery address', async ({ page }) => {
    await signedInBuyerAt(
      page,
      'Lantern Comedy Gala Night',
      { tickets: { 'Stalls (posted ticket)': 1 } },
      'delivery_address',
    );
    await expect(page.locator('[data-step="delivery_address"] button.button--block').first()).toBeVisible();
    await expectRightToLeft(page, 'delivery address');
  });

  test('a free order delivered and completed, the wallet and the account', async ({ page }) => {
    test.setTimeout(120_000);
    await page.clock.install();
    await signedInBuyerAt(page, FREE_EVENT, { tickets: { [FREE_TICKET]: 1 } }, 'deliver_tickets');
    const delivery = page.locator('[data-step="deliver_tickets"]');
    const completed = page.locator('[data-step="order_completed"]');
    await expect(delivery.locator('.delivery__stage').first()).toBeVisible();
    await expectRightToLeft(page, 'delivering tickets');
    await page.clock.fastForward(DELIVERY_START_DELAY_MS);
    await expect(delivery.locator('.delivery__stage[data-status="delivered"]').nth(1).or(completed)).toBeVisible();
    await page.clock.fastForward(DELIVERY_ADVANCE_DELAY_MS);
    await expect(completed.locator('.order-complete__reference')).toBeVisible();
    await expectRightToLeft(page, 'order completed');

    await completed.locator('a[href="/account/wallet/"]').first().click();
    await expect(page.locator('.wallet-ticket')).toHaveCount(1);
    await expectRightToLeft(page, 'ticket wallet');
    await page.goto('/account/');
    await expect(page.locator('h1')).toBeVisible();
    await expectRightToLeft(page, 'my account');
  });
});
