/**
 * The checkout in the buyer's language (docs/i18n.md). In the accented pseudo-locale every word on
 * screen has come through the message catalogue, so any visible text without an accent that is not
 * the buyer's own data (an event's title, a ticket's name, a date) was written into a component
 * directly. In the right-to-left pseudo-locale the screens are laid out right to left, fit a phone
 * and a desktop without scrolling sideways and pass axe. A browser that asks for Welsh gets the
 * checkout in Welsh, and the footer's picker keeps a choice.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { DELIVERY_ADVANCE_DELAY_MS, DELIVERY_START_DELAY_MS } from '../contract/delivery.ts';
import { expectNoAxeViolations } from './a11y.ts';
import { newBuyer } from './freeOrder.ts';
import { addFromEventPage, basketInUse, basketStep, expect, expectStep, photograph, test, urls } from './support.ts';
import { ACCENTED, LETTER } from '../i18n/untranslated.ts';

const JAZZ = {
  tickets: { 'General admission': 2, 'Riverside table seat': 1 },
  vouchers: { 'Riverside Arts gift voucher': 1 },
};

/** Chooses a locale for the browser as the footer's picker does (its cookie). */
async function useLocale(page: Page, locale: string): Promise<void> {
  await page.context().addCookies([{ name: 'hf_lang', value: locale, url: urls.main }]);
}

/**
 * Every piece of visible or spoken text on the page (text, and the labels and placeholders a buyer
 * reads or hears) with a letter and no accented letter, but for the buyer's own data (any string of
 * the page's checkout), the brand and what is marked as in a language of its own (`lang`).
 */
async function unaccentedText(page: Page, own: string[] = []): Promise<string[]> {
  return page.evaluate(
    async ({ own, letter, accented }) => {
      const data: string[] = [...own];
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
      // The rule of i18n/untranslated.ts, whose patterns come with the call.
      const untranslated = (text: string) =>
        new RegExp(letter).test(text) && !new RegExp(accented).test(text) && !isData(text.trim());
      const found: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!el || el.closest('script, style, noscript, template') || ownLanguage(el) || !el.checkVisibility())
          continue;
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
    },
    { own, letter: LETTER.source, accented: ACCENTED.source },
  );
}

test('every word of the basket comes through the catalogue: none is left unaccented in the accented pseudo-locale', async ({
  page,
}) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', JAZZ);
  await useLocale(page, 'en-XA');
  await page.goto('/checkout/');
  await basketInUse(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
  await expect(page.getByRole('button', { name: /Ŕéšéŕṽé Ɓášķéţ/ })).toBeVisible();
  expect(await unaccentedText(page)).toEqual([]);
});

test('the basket reads right to left in the mirrored pseudo-locale, fits 360 px and 1280 px and passes axe', async ({
  page,
}) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', JAZZ);
  await useLocale(page, 'ar-XB');
  await page.goto('/checkout/');
  await basketInUse(page);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, `the right-to-left basket at ${width} px`);
    await photograph(page, `docs/screenshots/rtl-basket-${width === 360 ? 'phone' : 'desktop'}.png`, {
      fullPage: width !== 360,
    });
  }
});

test.describe('a browser that asks for Welsh', () => {
  test.use({ locale: 'cy' });

  test('gets the basket in Welsh, and the footer’s picker keeps a choice of English', async ({ page }) => {
    await addFromEventPage(page, 'Summer Jazz on the Quay', JAZZ);
    await expect(page.locator('html')).toHaveAttribute('lang', 'cy');
    await expect(page.getByRole('heading', { level: 1, name: 'Basged' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Cadw'r Fasged/ })).toBeVisible();
    await expect(
      basketStep(page)
        .getByRole('list', { name: 'Yr eitemau yn eich basged' })
        .getByRole('listitem')
        .filter({ hasText: 'Riverside table seat' })
        .getByRole('button', { name: /Tynnu/ }),
    ).toBeVisible();
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

/** The newest e-mail of the demo mailbox to `email` whose subject matches, with its body. */
async function mailTo(
  context: BrowserContext,
  email: string,
  subject: RegExp,
): Promise<{ subject: string; body: string }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const text = await (await context.request.get(`/dev/mailbox?to=${encodeURIComponent(email)}`)).text();
    const mails = [
      ...text.matchAll(/<h2 class="mail__subject">([\s\S]*?)<\/h2>[\s\S]*?<pre class="mail__body">([\s\S]*?)<\/pre>/g),
    ].map((m) => ({ subject: m[1]!, body: m[2]! }));
    const found = mails.find((m) => subject.test(m.subject));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no e-mail to ${email} with a subject like ${subject}`);
}

const EVENT = 'Summer Jazz on the Quay';
const ONE_TICKET = { tickets: { 'General admission': 1 } };

/**
 * A newcomer's purchase from the basket to the wallet in whatever language the page is in: every
 * field and button is found by what it is, not by its words, and `atScreen` is called on each
 * screen of the checkout (the card processor's own page aside) and on the wallet.
 */
async function buyToWallet(
  page: Page,
  context: BrowserContext,
  atScreen: (screen: string) => Promise<void>,
): Promise<{ email: string; fullName: string }> {
  const buyer = newBuyer();
  await page.clock.install();
  await page.goto('/checkout/');
  await basketInUse(page);
  await atScreen('basket');
  await page.locator('[data-step="basket"] button.reserve-button').click();

  // The steps before payment, in the order the checkout gives them (a charity's donation may come
  // first); the reservation moves on by itself, and a step not named here is left with its main button.
  const shown = page.locator('[data-step]:not([inert])').first();
  for (;;) {
    await expect(shown).toBeVisible();
    const step = (await shown.getAttribute('data-step'))!;
    if (step === 'payment') break;
    const screen = page.locator(`[data-step="${step}"]`);
    if (step === 'basket' || step === 'reserve') {
      await expect(screen).toHaveCount(0);
      continue;
    }
    if (step !== 'login' && step !== 'donation' && step !== 'marketing_preferences') {
      await atScreen(step.replaceAll('_', ' '));
      await screen.locator('button.button--block').click();
    } else if (step === 'donation') {
      await atScreen('donation');
      await screen.locator('button.donation__skip').click();
    } else if (step === 'marketing_preferences') {
      await atScreen('keep updated');
      await screen.locator('button.button--block').click();
    } else {
      await expect(screen.locator('input[name="email"]')).toBeVisible();
      await atScreen('sign-in');
      await screen.locator('input[name="email"]').fill(buyer.email);
      await screen.locator('button.button--block').click();
      await expect(screen.locator('input[name="code"]')).toBeVisible();
      await atScreen('one-time code');
      const codeMail = await mailTo(context, buyer.email, /\d{6}/);
      await screen.locator('input[name="code"]').fill(/\b(\d{6})\b/.exec(codeMail.subject)![1]!);
      await screen.locator('button.button--block').click();
      await expect(screen.locator('input[name="fullname"]')).toBeVisible();
      await atScreen('full name');
      await screen.locator('input[name="fullname"]').fill(buyer.fullName);
      await screen.locator('button.button--block').click();
    }
    await expect(screen).toHaveCount(0);
  }

  const payment = page.locator('[data-step="payment"]');
  await expect(payment.locator('input[autocomplete="billing given-name"]')).toBeVisible();
  await payment.locator('input[autocomplete="billing given-name"]').fill('Ada');
  await payment.locator('input[autocomplete="billing family-name"]').fill('Lovelace');
  await payment.locator('input[autocomplete="billing address-line1"]').fill('4 Mill Lane');
  await payment.locator('input[autocomplete="billing address-level2"]').fill('Cirencester');
  await payment.locator('input[autocomplete="billing postal-code"]').fill('GL7 1AB');
  await atScreen('payment');
  await payment.locator('button[type="submit"].button--large').click();

  // The card processor's own page, in its own words.
  await expect(page).toHaveURL(/\/sandbox\/card\//);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();

  await expect(page).toHaveURL(/\/checkout\/$/);
  const delivery = page.locator('[data-step="deliver_tickets"]');
  const completed = page.locator('[data-step="order_completed"]');
  await expect(delivery.locator('.delivery__stage').first().or(completed)).toBeVisible();
  if (await delivery.isVisible()) await atScreen('delivering tickets');
  await page.clock.fastForward(DELIVERY_START_DELAY_MS);
  await expect(delivery.locator('.delivery__stage[data-status="delivered"]').nth(1).or(completed)).toBeVisible();
  await page.clock.fastForward(DELIVERY_ADVANCE_DELAY_MS);
  await expect(completed).toBeVisible();
  await expect(completed.locator('.order-complete__reference')).toBeVisible();
  await atScreen('order completed');

  await completed.locator('a[href="/account/wallet/"]').first().click();
  await expect(page).toHaveURL(/\/account\/wallet\/$/);
  await expect(page.locator('.wallet-ticket')).toHaveCount(1);
  await atScreen('wallet');
  return buyer;
}

test('every screen from the basket to the wallet comes through the catalogue: none is left unaccented in the accented pseudo-locale, and payment reads right to left in the mirrored one', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await addFromEventPage(page, EVENT, ONE_TICKET);
  await useLocale(page, 'en-XA');
  const seen: string[] = [];
  await buyToWallet(page, context, async (screen) => {
    seen.push(screen);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
    // The buyer's own data: the wallet's facts, the address they typed, the charity's own words.
    const own = await page
      .locator('.wallet-ticket dd, .wallet-ticket__event, .login__who, .donation__charity p')
      .allTextContents();
    expect(await unaccentedText(page, own), `unaccented text on ${screen}`).toEqual([]);
    if (screen === 'payment') {
      await useLocale(page, 'ar-XB');
      await page.reload();
      await expectStep(page, 'payment');
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, 'sideways scroll on payment, right to left').toBeLessThanOrEqual(0);
      await photograph(page, 'docs/screenshots/rtl-payment-phone.png');
      await useLocale(page, 'en-XA');
      await page.reload();
      await expectStep(page, 'payment');
      const payment = page.locator('[data-step="payment"]');
      // The billing address the chart kept through the reload, or typed again.
      for (const [field, value] of [
        ['given-name', 'Ada'],
        ['family-name', 'Lovelace'],
        ['address-line1', '4 Mill Lane'],
        ['address-level2', 'Cirencester'],
        ['postal-code', 'GL7 1AB'],
      ] as const) {
        const input = payment.locator(`input[autocomplete="billing ${field}"]`);
        if (await input.isVisible()) await input.fill(value);
      }
    }
  });
  expect(seen).toEqual(
    expect.arrayContaining([
      'basket',
      'sign-in',
      'one-time code',
      'full name',
      'keep updated',
      'payment',
      'order completed',
      'wallet',
    ]),
  );
});

test.describe('a Welsh buyer from the basket to the wallet', () => {
  test.use({ locale: 'cy' });

  test('buys on a phone in Welsh, with the sign-in code and the wallet e-mailed in Welsh', async ({
    page,
    context,
  }) => {
    test.setTimeout(180_000);
    await addFromEventPage(page, EVENT, ONE_TICKET);
    const headings: Record<string, string> = {
      basket: 'Basged',
      'sign-in': 'Mewngofnodi',
      'keep updated': 'Cadw mewn cysylltiad',
      payment: 'Talu',
      'delivering tickets': 'Danfon tocynnau',
      'order completed': "Archeb wedi'i chwblhau",
      wallet: 'Waled docynnau',
    };
    const buyer = await buyToWallet(page, context, async (screen) => {
      await expect(page.locator('html')).toHaveAttribute('lang', 'cy');
      const heading = headings[screen];
      if (heading) await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      if (screen === 'sign-in') await expect(page.getByLabel('Cyfeiriad e-bost')).toBeVisible();
      if (screen === 'one-time code') await expect(page.getByText("Cod wedi'i anfon i'r mewnflwch")).toBeVisible();
      if (screen === 'payment') {
        await expect(page.getByRole('radio', { name: 'Cerdyn Credyd neu Ddebyd' })).toBeChecked();
        await expect(page.getByRole('button', { name: /^Talu £\d+\.\d\d$/ })).toBeVisible();
        await photograph(page, 'docs/screenshots/cy-payment-phone.png');
      }
      if (screen === 'order completed') {
        await expect(page.getByText("Archeb wedi'i chwblhau! Mae eich tocynnau ar eu ffordd.")).toBeVisible();
        await expect(page.getByText(/^Eich cyfeirnod yw HF-[A-Z0-9]+$/)).toBeVisible();
        await expect(page.getByRole('link', { name: "Mynd i'r waled docynnau" })).toBeVisible();
      }
      if (screen === 'wallet') {
        await expect(page.locator('.wallet-ticket dt').first()).toHaveText('Dyddiad');
        await photograph(page, 'docs/screenshots/cy-wallet-phone.png');
      }
    });
    const code = await mailTo(context, buyer.email, /yw eich cod/);
    expect(code.body).toContain('Eich cod untro i fewngofnodi neu gofrestru yw');
    const wallet = await mailTo(context, buyer.email, /^Eich tocynnau/);
    expect(wallet.subject).toMatch(/^Eich tocynnau \(HF-[A-Z0-9]+\)$/);
    expect(wallet.body).toContain('Dyma eich tocynnau gan');
    expect(wallet.body).toContain('Cod y tocyn:');
  });
});
