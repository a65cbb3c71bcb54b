import type { Page } from '@playwright/test';
import { expect, test } from './support.ts';
import { expectAccessibleAtBothWidths } from './a11y.ts';
import { basketInUse, basketLine, basketStep, keepScreenshot, reserveButton } from './support.ts';

/** Finds an event page the way a buyer does: from the catalogue, by its title. */
async function openEvent(page: Page, title: string): Promise<void> {
  await page.goto('/all-events/');
  await page.getByRole('link', { name: title }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/**
 * Every catalogue page a buyer can reach, opened once and scanned at both widths (360 px and
 * 1280 px): tagged @bothWidths, these run in the phone project alone. The rules of the event page's
 * form are the same code at every width: tagged @anyWidth, those run in the desktop project alone.
 */
const PAGES: { name: string; open: (page: Page) => Promise<void> }[] = [
  { name: 'all events', open: (page) => page.goto('/all-events/').then(() => undefined) },
  { name: 'an event with gift vouchers', open: (page) => openEvent(page, 'Summer Jazz on the Quay') },
  { name: 'an event with a minimum of 2', open: (page) => openEvent(page, 'The Lantern: Friday Late Show') },
  { name: 'an event with a required ticket', open: (page) => openEvent(page, 'Castleton Trail Run') },
  {
    name: 'an organiser',
    open: async (page) => {
      await openEvent(page, 'Summer Jazz on the Quay');
      await page.getByRole('link', { name: 'Riverside Arts Collective' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Riverside Arts Collective' })).toBeVisible();
    },
  },
  { name: 'sign in', open: (page) => page.goto('/signin/').then(() => undefined) },
  { name: 'mailing list', open: (page) => page.goto('/mailing-list').then(() => undefined) },
  { name: 'refund policy', open: (page) => page.goto('/refund-policy/').then(() => undefined) },
  {
    name: 'purchase terms',
    open: (page) => page.goto('/legal-information/purchase-terms-and-conditions/').then(() => undefined),
  },
];

for (const { name, open } of PAGES) {
  test(
    `${name}: no accessibility violations and every target at least 44 × 44 px or spaced to that`,
    { tag: '@bothWidths' },
    async ({ page }) => {
      await open(page);
      await expectAccessibleAtBothWidths(page, name, true);
    },
  );
}

test('an event page shows an error notice accessibly', { tag: '@bothWidths' }, async ({ page }) => {
  await openEvent(page, 'The Lantern: Friday Late Show');
  await page.goto(`${new URL(page.url()).pathname}?error=not-added`);
  await expect(page.getByRole('alert')).toHaveText(
    'Your tickets could not be added. Please check the quantities and try again.',
  );
  await expectAccessibleAtBothWidths(page, 'an event page with an error', true);
});

test(
  'the event page’s stepper keeps a ‘minimum 2’ ticket at 0 or at least 2',
  { tag: '@anyWidth' },
  async ({ page }) => {
    await openEvent(page, 'The Lantern: Friday Late Show');
    const quantity = page.getByLabel('Quantity of Cabaret table (pairs)', { exact: true });
    const more = page.getByRole('button', { name: 'One more Cabaret table (pairs)' });
    const fewer = page.getByRole('button', { name: 'One fewer Cabaret table (pairs)' });
    await expect(quantity).toHaveValue('0');
    await expect(fewer).toBeDisabled();

    await more.click();
    await expect(quantity).toHaveValue('2');
    await more.click();
    await expect(quantity).toHaveValue('3');
    await fewer.click();
    await fewer.click();
    await expect(quantity).toHaveValue('0');

    // Typed below the minimum: the basket's wording, and the form is not sent.
    await quantity.fill('1');
    await expect(page.getByText('You must purchase a minimum of 2 tickets of this type')).toBeVisible();
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await expect(page).toHaveURL(/\/event\/\d+\/$/);
    await expect(quantity).toBeFocused();

    await more.click();
    await expect(quantity).toHaveValue('2');
    await expect(page.getByText('You must purchase a minimum of 2 tickets of this type')).toHaveCount(0);
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await expect(page).toHaveURL(/\/checkout\/$/);
    await expect(basketLine(page, 'Cabaret table (pairs)')).toBeVisible();
    await expect(basketStep(page).getByRole('spinbutton', { name: /Cabaret table/ })).toHaveValue('2');
    await expect(basketStep(page).getByText('You must purchase a minimum of 2 tickets of this type')).toHaveCount(0);
    await expect(reserveButton(page)).toBeEnabled();
  },
);

test(
  'before its script runs the event page offers no − and + buttons that would do nothing, and the typed quantity still goes to the basket',
  { tag: '@anyWidth' },
  async ({ page }) => {
    await page.route('**/assets/orderForm-*.js', (route) => route.abort());
    await openEvent(page, 'Summer Jazz on the Quay');
    await expect(page.getByRole('button', { name: 'One more Riverside table seat' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'One fewer Riverside table seat' })).toHaveCount(0);
    await page.getByLabel('Quantity of Riverside table seat', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await expect(page).toHaveURL(/\/checkout\/$/);
    await expect(basketLine(page, 'Riverside table seat')).toBeVisible();
  },
);

test(
  'the event page’s stepper stops at a ticket’s maximum, and a typed excess is refused before it is sent',
  { tag: '@anyWidth' },
  async ({ page }) => {
    await openEvent(page, 'Summer Jazz on the Quay');
    const quantity = page.getByLabel('Quantity of Riverside table seat', { exact: true });
    const more = page.getByRole('button', { name: 'One more Riverside table seat' });
    for (let i = 0; i < 4; i++) await more.click();
    await expect(quantity).toHaveValue('4');
    await expect(more).toBeDisabled();

    await quantity.fill('6');
    await expect(page.getByText('You can only reserve 4 tickets of this type')).toBeVisible();
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await expect(page).toHaveURL(/\/event\/\d+\/$/);
  },
);

test(
  'a gift voucher’s value is a choice of cards, and the chosen one goes to the basket',
  { tag: '@anyWidth' },
  async ({ page }) => {
    await openEvent(page, 'Summer Jazz on the Quay');
    const values = page.getByRole('group', { name: 'Value of Riverside Arts gift voucher' });
    await expect(values.getByRole('radio').first()).toBeChecked();
    await values.getByRole('radio', { name: '£50.00' }).check();
    await page.getByRole('button', { name: 'One more Riverside Arts gift voucher' }).click();
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await expect(page).toHaveURL(/\/checkout\/$/);
    await expect(basketLine(page, 'Riverside Arts gift voucher')).toContainText('£50.00');
  },
);

test('catalogue and checkout share one header, one footer and one stepper', async ({ page }) => {
  const look = async () => {
    const header = page.locator('header.site-header');
    const footer = page.locator('footer.site-footer');
    const box = await header.boundingBox();
    return {
      brand: await header.locator('.brand').innerText(),
      // The basket's count (shown once something is in it) aside, the links read the same.
      headerLinks: await header.getByRole('link').evaluateAll((links) =>
        links.map((a) =>
          [...a.childNodes]
            .filter((n) => !(n instanceof Element && n.classList.contains('site-header__count')))
            .map((n) => n.textContent)
            .join(''),
        ),
      ),
      footerLinks: await footer.getByRole('link').allInnerTexts(),
      headerHeight: Math.round(box?.height ?? 0),
      headerBackground: await header.evaluate((el) => getComputedStyle(el).backgroundColor),
      font: await page.locator('body').evaluate((el) => getComputedStyle(el).fontFamily),
    };
  };
  await openEvent(page, 'Summer Jazz on the Quay');
  const catalogue = await look();
  const eventStepper = await page.locator('.stepper').first().boundingBox();
  await page.getByLabel('Quantity of General admission', { exact: true }).fill('2');
  await page.getByRole('button', { name: 'Add to basket' }).click();
  await expect(basketLine(page, 'General admission')).toBeVisible();
  // Measured once the app has drawn the page over the server's first paint.
  await basketInUse(page);
  const checkout = await look();
  const basketStepper = await basketStep(page).locator('.stepper').first().boundingBox();

  expect(checkout).toEqual(catalogue);
  expect(catalogue.headerLinks.map((t) => t.trim())).toEqual(['Holdfast', 'All events', 'Basket']);
  expect(Math.round(basketStepper?.height ?? 0)).toBe(Math.round(eventStepper?.height ?? -1));
  expect(Math.round(basketStepper?.width ?? 0)).toBe(Math.round(eventStepper?.width ?? -1));
});

test('catalogue pictures at this width', async ({ page }, testInfo) => {
  await page.goto('/all-events/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await keepScreenshot(page, testInfo, 'catalogue-all-events');
  await openEvent(page, 'Summer Jazz on the Quay');
  await page.getByRole('button', { name: 'One more General admission' }).click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await keepScreenshot(page, testInfo, 'catalogue-event');
});
