import { expect, test } from './support.ts';
import {
  addFromEventPage,
  basketLine,
  basketStep,
  clientLoaded,
  failCall,
  holdCalls,
  pauseClock,
  reserveButton,
  withoutPageData,
} from './support.ts';

test.describe('empty basket', () => {
  test('prompts to browse, and offers the mailing list to visitors who are not signed in', async ({ page }) => {
    await page.goto('/checkout/');
    const basket = basketStep(page);
    await expect(basket.getByText('Looking for something to put in your basket?')).toBeVisible();
    await expect(basket.getByRole('link', { name: /all events|browse/i }).first()).toHaveAttribute(
      'href',
      '/all-events/',
    );
    await expect(basket.getByRole('link', { name: 'Sign up for exclusive event news and discounts!' })).toHaveAttribute(
      'href',
      '/mailing-list',
    );
  });

  test('hides the mailing list from a signed-in subscriber, shows it to one who is not subscribed', async ({
    page,
  }) => {
    await page.goto('/signin/');
    await page.getByRole('button', { name: 'Continue as Amelia Hughes' }).click();
    await page.goto('/checkout/');
    await expect(basketStep(page).getByText('Looking for something to put in your basket?')).toBeVisible();
    await expect(page.getByText('Sign up for exclusive event news and discounts!')).toHaveCount(0);
    // Amelia organises events with dark mode on, and the organiser view is the default.
    await expect(page.locator('body')).toHaveClass(/\bdark\b/);

    await page.goto('/signout/');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/all-events\/$/);
    await page.goto('/signin/');
    await page.getByRole('button', { name: 'Continue as Tom Okafor' }).click();
    await page.goto('/checkout/');
    await expect(page.getByText('Sign up for exclusive event news and discounts!')).toBeVisible();
    await expect(page.locator('body')).not.toHaveClass(/\bdark\b/);
  });
});

test('a quantity above the per-order cap is reduced with a warning and sent', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'Riverside table seat': 2 } });
  const server = await holdCalls(page, '/update_ticket_quantity/');
  const quantity = basketStep(page).getByRole('spinbutton', { name: /Riverside table seat/ });
  await quantity.fill('6');
  await quantity.blur();
  await expect(basketStep(page).getByText('You can only reserve 4 tickets of this type')).toBeVisible();
  await expect(quantity).toHaveValue('4');
  // The capped change is sent after the debounce; the inputs wait, disabled, for the reply.
  await server.arrived();
  await expect(quantity).toBeDisabled();
  const sent = page.waitForResponse((r) => r.url().includes('/update_ticket_quantity/') && r.ok());
  server.release();
  await sent;
  await expect(quantity).toBeEnabled();
  await page.reload();
  await expect(basketStep(page).getByRole('spinbutton', { name: /Riverside table seat/ })).toHaveValue('4');
});

test('a quantity below the minimum per customer warns, is not sent, and blocks reserving', async ({ page }) => {
  await page.clock.install();
  await addFromEventPage(page, 'The Lantern: Friday Late Show', { tickets: { 'Cabaret table (pairs)': 2 } });
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/update_ticket_quantity/')) sent.push(r.url());
  });
  await clientLoaded(page);
  await pauseClock(page);
  const quantity = basketStep(page).getByRole('spinbutton', { name: /Cabaret table/ });
  await quantity.fill('1');
  await quantity.blur();
  await expect(basketStep(page).getByText('You must purchase a minimum of 2 tickets of this type')).toBeVisible();
  await expect(reserveButton(page)).toBeDisabled();
  await page.clock.runFor(2_500); // longer than the 2 s debounce: nothing may be sent
  expect(sent).toEqual([]);
  await quantity.fill('2');
  await quantity.blur();
  await expect(page.getByText('You must purchase a minimum of 2 tickets of this type')).toHaveCount(0);
  // The valid quantity goes after its own 2 s, and it is the only call: the 1 never went.
  await page.clock.runFor(1_999);
  expect(sent).toEqual([]);
  await page.clock.runFor(2);
  await expect.poll(() => sent.length).toBe(1);
  await expect(reserveButton(page)).toBeEnabled({ timeout: 10_000 });
});

test('a ticket that needs another lists what is missing, with a login hint, and blocks reserving', async ({ page }) => {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { 'Parking permit': 1 } });
  const basket = basketStep(page);
  await expect(
    basket.getByText('You must also purchase the following tickets to continue the checkout.'),
  ).toBeVisible();
  await expect(basket.getByText('10K or half marathon entry')).toBeVisible();
  await expect(basket.getByRole('link', { name: /sign in|log in/i }).first()).toHaveAttribute('href', /\/signin\//);
  await expect(reserveButton(page)).toBeDisabled();
  await expect(basket.getByText(/Non-refundable/i).first()).toBeVisible();

  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await expect(
    basketStep(page).getByText('You must also purchase the following tickets to continue the checkout.'),
  ).toHaveCount(0);
  await expect(reserveButton(page)).toBeEnabled();
});

test('tickets of one event at different times show the event’s timeslot warning', async ({ page }) => {
  await addFromEventPage(page, 'Ashcombe Winter Lantern Trail', {
    tickets: { 'Adult (5pm entry)': 1, 'Adult (7pm entry)': 1 },
  });
  await expect(
    basketStep(page).getByText(
      'Your tickets are for different entry times. Everyone in your group must arrive at the time on their own ticket.',
    ),
  ).toBeVisible();
});

test('a ticket in another currency is removed with the currency warning', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
  await addFromEventPage(page, 'Docklands Street Food Weekend', { tickets: { 'Day pass': 1 } });
  const basket = basketStep(page);
  await expect(
    basket.getByText(
      'Unfortunately, some tickets had to be removed because they are being sold using a different currency from tickets already in the basket. Please purchase them separately',
    ),
  ).toBeVisible();
  await expect(basketLine(page, 'Day pass')).toHaveCount(0);
});

test('a discount code that applies and one that does not', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  const basket = basketStep(page);
  await basket.getByText('DISCOUNT OR VOUCHER CODE?').click();
  const input = basket.getByRole('textbox', { name: /code/i });
  await input.fill('NOT-A-CODE');
  await basket.getByRole('button', { name: /apply/i }).click();
  await expect(basket.getByText('Invalid code')).toBeVisible();

  const summary = basket.getByRole('region', { name: 'Order summary' });
  await expect(summary).toContainText('£48.00'); // 2 × £22.50 + 2 × £1.50 fees
  await input.fill('SUMMER10');
  await basket.getByRole('button', { name: /apply/i }).click();
  await expect(basket.getByText('Code applied')).toBeVisible();
  await expect(basket.getByText('Discount code SUMMER10 applied')).toBeVisible(); // the server's basket_success
  await expect(summary).toContainText('SUMMER10');
  await expect(summary).toContainText('£43.50'); // 10 % off the £45.00 of tickets
});

test('refund protection changes the total and lists events it cannot cover', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  const basket = basketStep(page);
  const summary = basket.getByRole('region', { name: 'Order summary' });
  const totalBefore = await summary.getByTestId('summary-total').textContent();
  await basket.getByRole('radio', { name: /^yes/i }).click();
  await expect(summary.getByText(/refund protection/i)).toBeVisible();
  await expect(summary.getByTestId('summary-total')).not.toHaveText(totalBefore ?? '');
  await expect(basket.getByText('Castleton Trail Run', { exact: false }).first()).toBeVisible();
  await basket.getByRole('radio', { name: /^no/i }).click();
  await expect(summary.getByTestId('summary-total')).toHaveText(totalBefore ?? '');
});

test('the refund policy opens in a modal and lines can be removed', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', {
    tickets: { 'General admission': 1 },
    vouchers: { 'Riverside Arts gift voucher': 1 },
  });
  const basket = basketStep(page);
  const policyButton = basket.getByRole('button', { name: /refund policy/i }).first();
  await policyButton.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  // Closed, the dialog gives focus back to the button that opened it; it opens again.
  await expect(policyButton).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(policyButton).toBeFocused();

  await basket
    .getByRole('button', { name: /remove/i })
    .first()
    .click();
  await expect(reserveButton(page)).toContainText('1');
});

test.describe('failed basket calls show their notifications', () => {
  const cases: [string, string, (page: import('@playwright/test').Page) => Promise<void>][] = [
    [
      '/update_ticket_quantity/',
      'Unable to update Ticket quantity. Please try again later',
      async (page) => {
        const q = basketStep(page).getByRole('spinbutton', { name: /General admission/ });
        await q.fill('3');
        await q.blur();
      },
    ],
    [
      '/update_gift_voucher_quantity/',
      'Unable to update Gift Voucher quantity. Please try again later',
      async (page) => {
        const q = basketStep(page).getByRole('spinbutton', { name: /gift voucher/i });
        await q.fill('2');
        await q.blur();
      },
    ],
    [
      '/update_refund_protection/',
      'Unable to update Refund protection. Please try again later',
      async (page) => basketStep(page).getByRole('radio', { name: /^yes/i }).click(),
    ],
    [
      '/set_code/',
      'Unable to set the Code. Please try again later',
      async (page) => {
        const basket = basketStep(page);
        await basket.getByText('DISCOUNT OR VOUCHER CODE?').click();
        await basket.getByRole('textbox', { name: /code/i }).fill('SUMMER10');
        await basket.getByRole('button', { name: /apply/i }).click();
      },
    ],
    [
      '/remove_from_basket/',
      'Unable to remove the Ticket from the basket. Please try again later',
      async (page) =>
        basketStep(page)
          .getByRole('button', { name: /remove general admission/i })
          .click(),
    ],
    [
      '/remove_gift_voucher_from_basket/',
      'Unable to remove the Gift Voucher from the basket. Please try again later',
      async (page) =>
        basketStep(page)
          .getByRole('button', { name: /remove riverside arts gift voucher/i })
          .click(),
    ],
  ];
  for (const [path, message, act] of cases) {
    test(message, async ({ page }) => {
      await addFromEventPage(page, 'Summer Jazz on the Quay', {
        tickets: { 'General admission': 1 },
        vouchers: { 'Riverside Arts gift voucher': 1 },
      });
      await failCall(page, path);
      await act(page);
      await expect(page.getByText(message)).toBeVisible({ timeout: 10_000 });
    });
  }
});

test('a checkout that cannot be loaded says so', async ({ page }) => {
  await withoutPageData(page);
  await failCall(page, '/ajax/checkout/checkout/get/');
  await page.goto('/checkout/');
  await expect(page.getByText('Unable to get Checkout data. Please try again later')).toBeVisible();
});

test('the checkout says what it is doing while it loads', async ({ page }) => {
  await withoutPageData(page);
  const server = await holdCalls(page, '/ajax/checkout/checkout/get/');
  await page.goto('/checkout/');
  await server.arrived();
  await expect(page.getByRole('heading', { name: 'Determining checkout progress' })).toBeVisible();
  server.release();
  await expect(basketStep(page)).toBeVisible();
});

test('Continue shopping offers the organiser’s other upcoming events', async ({ page }) => {
  await addFromEventPage(page, 'The Lantern: Friday Late Show', { tickets: { 'Standard seat': 1 } });
  const more = basketStep(page).getByRole('region', { name: 'Continue shopping' });
  await expect(more).toContainText('The Lantern Comedy Club');
  await more.getByRole('link', { name: /The Lantern: New Acts Night/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'The Lantern: New Acts Night' })).toBeVisible();
});

test('a ticket whose quantity cannot change shows it read-only', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'Patron package': 1, 'General admission': 1 } });
  await expect(basketStep(page).getByRole('spinbutton', { name: /Patron package/ })).toHaveAttribute('readonly', '');
  await expect(basketStep(page).getByRole('spinbutton', { name: /General admission/ })).not.toHaveAttribute(
    'readonly',
    '',
  );
});

test('booking fees the organiser absorbs are shown in brackets inside the subtotal; others with a plus', async ({
  page,
}) => {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 2 } });
  const summary = basketStep(page).getByRole('region', { name: 'Order summary' });
  await expect(summary).toContainText(/Subtotal\s*£56\.00/);
  await expect(summary).toContainText(/Booking fees.*\(£4\.00\)/);
  await expect(summary.getByTestId('summary-total')).toHaveText('£56.00');
  await expect(basketLine(page, '10K entry')).toContainText('£28.00 incl. £2.00 booking fee');

  await addFromEventPage(page, 'The Lantern: Friday Late Show', { tickets: { 'Standard seat': 1 } });
  await expect(summary).toContainText(/Booking fees.*\+ £5\.00/); // £4.00 absorbed + £1.00 charged
  await expect(summary.getByTestId('summary-total')).toHaveText('£72.00');
});

test('the server’s basket errors show as warnings and its successes as notes', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
  await withoutPageData(page);
  await page.route('**/ajax/checkout/checkout/get/', async (route) => {
    const response = await route.fetch();
    const checkout = await response.json();
    await route.fulfill({
      response,
      json: { ...checkout, basket_errors: ['Early bird is sold out'], basket_success: ['Riverside table seat added'] },
    });
  });
  await page.reload();
  await expect(basketStep(page).getByText('Early bird is sold out')).toBeVisible();
  await expect(basketStep(page).getByText('Riverside table seat added')).toBeVisible();
});

test('the basket is reloaded when the tab becomes visible again', async ({ page, context }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
  const otherTab = await context.newPage();
  await addFromEventPage(otherTab, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await otherTab.close();

  await expect(basketLine(page, '10K entry')).toHaveCount(0);
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(basketLine(page, '10K entry')).toBeVisible();
});
