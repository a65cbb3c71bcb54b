/**
 * The checkout in the buyer's language (docs/i18n.md). In the accented pseudo-locale every word on
 * screen has come through the message catalogue, so any visible text without an accent that is not
 * the buyer's own data (an event's title, a ticket's name, a date) was written into a component
 * directly. In the right-to-left pseudo-locale the screens are laid out right to left, fit a phone
 * and a desktop without scrolling sideways and pass axe. A browser that asks for Welsh gets the
 * checkout in Welsh, and the footer's picker keeps a choice.
 */
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './a11y.ts';
import { addFromEventPage, basketInUse, basketStep, expect, photograph, test, urls } from './support.ts';

const JAZZ = { tickets: { 'General admission': 2, 'Riverside table seat': 1 }, vouchers: { 'Riverside Arts gift voucher': 1 } };

/** Chooses a locale for the browser as the footer's picker does (its cookie). */
async function useLocale(page: Page, locale: string): Promise<void> {
  await page.context().addCookies([{ name: 'hf_lang', value: locale, url: urls.main }]);
}

/**
 * Every piece of visible or spoken text on the page (text, and the labels and placeholders a buyer
 * reads or hears) with a letter and no accented letter, but for the buyer's own data (any string of
 * the page's checkout), the brand and what is marked as in a language of its own (`lang`).
 */
async function unaccentedText(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const data: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === 'string') data.push(value);
      else if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    // The buyer's checkout as the app reads it (the page's own copy is taken up by the app).
    collect(await (await fetch('/ajax/checkout/checkout/get/')).json());
    const brand = document.querySelector('.brand__name')?.textContent ?? '';
    const isData = (text: string) => text === brand || data.some((d) => d.trim() === text);
    const ownLanguage = (el: Element | null) => el?.closest('[lang]') !== document.documentElement;
    const untranslated = (text: string) => /[A-Za-z]/.test(text) && !/[\u00C0-\u024F\u1E00-\u1EFF]/.test(text) && !isData(text.trim());
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest('script, style, noscript, template') || ownLanguage(el) || !el.checkVisibility()) continue;
      const text = node.textContent ?? '';
      if (untranslated(text)) found.push(text.trim());
    }
    for (const el of document.body.querySelectorAll('[aria-label], [placeholder], [title]')) {
      if (ownLanguage(el) || !(el as HTMLElement).checkVisibility()) continue;
      for (const name of ['aria-label', 'placeholder', 'title']) {
        const text = el.getAttribute(name);
        if (text && untranslated(text)) found.push(`${name}="${text}"`);
      }
    }
    return found;
  });
}

test('every word of the basket comes through the catalogue: none is left unaccented in the accented pseudo-locale', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', JAZZ);
  await useLocale(page, 'en-XA');
  await page.goto('/checkout/');
  await basketInUse(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
  await expect(page.getByRole('button', { name: /Ŕéšéŕṽé Ɓášķéţ/ })).toBeVisible();
  expect(await unaccentedText(page)).toEqual([]);
});

test('the basket reads right to left in the mirrored pseudo-locale, fits 360 px and 1280 px and passes axe', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', JAZZ);
  await useLocale(page, 'ar-XB');
  await page.goto('/checkout/');
  await basketInUse(page);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, `the right-to-left basket at ${width} px`);
    await photograph(page, `docs/screenshots/rtl-basket-${width === 360 ? 'phone' : 'desktop'}.png`, { fullPage: width !== 360 });
  }
});

test.describe('a browser that asks for Welsh', () => {
  test.use({ locale: 'cy' });

  test('gets the basket in Welsh, and the footer’s picker keeps a choice of English', async ({ page }) => {
    await addFromEventPage(page, 'Summer Jazz on the Quay', JAZZ);
    await expect(page.locator('html')).toHaveAttribute('lang', 'cy');
    await expect(page.getByRole('heading', { level: 1, name: 'Basged' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Cadw'r Fasged/ })).toBeVisible();
    await expect(basketStep(page).getByRole('list', { name: 'Yr eitemau yn eich basged' }).getByRole('listitem').filter({ hasText: 'Riverside table seat' }).getByRole('button', { name: /Tynnu/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: "Crynodeb o'r archeb" })).toBeVisible();
    await photograph(page, 'docs/screenshots/cy-basket-phone.png');

    await page.getByLabel('Iaith').selectOption('en-GB');
    await page.getByRole('button', { name: 'Newid' }).click();
    await expect(page).toHaveURL(/\/checkout\/$/);
    await basketInUse(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-GB');
    await expect(page.getByRole('button', { name: /Reserve Basket/ })).toBeVisible();
    expect((await page.context().cookies()).find((c) => c.name === 'hf_lang')?.value).toBe('en-GB');
  });
});
