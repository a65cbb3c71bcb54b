import type { Page } from '@playwright/test';
import { advanceTo, expect, test } from './support.ts';
import { expectAccessibleAtBothWidths } from './a11y.ts';
import {
  addFromEventPage,
  basketLine,
  basketStep,
  expectStep,
  failCall,
  reserveButton,
  signInAsNewBuyer,
  throughDelivery,
  urls,
  withoutPageData,
} from './support.ts';
import { freeOrderOnDelivery } from './freeOrder.ts';

/**
 * Every checkout screen and state a buyer can meet, reached once on a phone, scanned by axe at the
 * phone's width and at the desktop's, and measured for tap targets on the phone. A new step or
 * state is covered by adding it to this list. (This file is the phone project's alone; see
 * playwright.config.ts.)
 */
interface Screen {
  name: string;
  /** Which server to use: the captcha step needs the one that always asks. */
  base?: string;
  /** A browser that identifies itself this way (the in-app browser warning). */
  userAgent?: string;
  reach: (page: Page) => Promise<void>;
}

const IN_APP_BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 309.0.0.0';

async function filledBasket(page: Page, base = '') {
  await addFromEventPage(
    page,
    'Summer Jazz on the Quay',
    { tickets: { 'General admission': 2, 'Riverside table seat': 1 }, vouchers: { 'Riverside Arts gift voucher': 1 } },
    base,
  );
  await expect(basketLine(page, 'General admission')).toBeVisible();
}

/** A signed-in buyer past sign-in and Keep updated, on the payment step. */
async function toPayment(page: Page, event: string, tickets: Record<string, number>) {
  await signInAsNewBuyer(page);
  await addFromEventPage(page, event, { tickets });
  await reserveButton(page).click();
  await advanceTo(page, 'payment');
}

async function heldBasket(page: Page) {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 2 } });
  await reserveButton(page).click();
  await expectStep(page, 'login');
  await expect(page.getByTestId('countdown-clock').first()).toBeVisible();
}

/** A signed-in demo buyer with posted tickets, on the delivery address step. */
async function deliveryAddressAs(page: Page, buyer: string) {
  await page.goto('/signin/');
  await page.getByRole('button', { name: `Continue as ${buyer}` }).click();
  await addFromEventPage(page, 'Lantern Comedy Gala Night', { tickets: { 'Stalls (posted ticket)': 1 } });
  await reserveButton(page).click();
  await advanceTo(page, 'delivery_address');
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
}

const SCREENS: Screen[] = [
  {
    name: 'determining',
    reach: async (page) => {
      // The checkout never answers while the screen is scanned.
      await withoutPageData(page);
      await page.route('**/ajax/checkout/checkout/get/', () => undefined);
      await page.goto('/checkout/');
      await expect(page.getByRole('heading', { name: 'Determining checkout progress' })).toBeVisible();
    },
  },
  {
    name: 'determining failed, with its error notice',
    reach: async (page) => {
      await withoutPageData(page);
      await failCall(page, '/ajax/checkout/checkout/get/');
      await page.goto('/checkout/');
      await expect(page.getByText('Unable to get Checkout data. Please try again later')).toBeVisible();
    },
  },
  {
    name: 'empty basket',
    reach: async (page) => {
      await page.goto('/checkout/');
      await expect(page.getByText('Looking for something to put in your basket?')).toBeVisible();
    },
  },
  {
    name: 'filled basket with refund protection chosen',
    reach: async (page) => {
      await filledBasket(page);
      await basketStep(page).getByRole('radio', { name: /^yes/i }).click();
      await expect(basketStep(page).getByRole('radio', { name: /^yes/i })).toBeChecked({ timeout: 10_000 });
    },
  },
  {
    name: 'basket with warnings: a missing required ticket and a line below its minimum',
    reach: async (page) => {
      await addFromEventPage(page, 'Castleton Trail Run', { tickets: { 'Parking permit': 1 } });
      await addFromEventPage(page, 'The Lantern: Friday Late Show', { tickets: { 'Cabaret table (pairs)': 2 } });
      const quantity = basketStep(page).getByRole('spinbutton', { name: /Cabaret table/ });
      await quantity.fill('1');
      await quantity.blur();
      await expect(basketStep(page).getByText('You must purchase a minimum of 2 tickets of this type')).toBeVisible();
      await expect(
        basketStep(page).getByText('You must also purchase the following tickets to continue the checkout.'),
      ).toBeVisible();
    },
  },
  {
    name: 'basket with an error notice',
    reach: async (page) => {
      await filledBasket(page);
      await failCall(page, '/remove_from_basket/');
      await basketStep(page)
        .getByRole('button', { name: /remove general admission/i })
        .click();
      await expect(page.getByText('Unable to remove the Ticket from the basket. Please try again later')).toBeVisible();
    },
  },
  {
    name: 'code panel open with an invalid code',
    reach: async (page) => {
      await filledBasket(page);
      await basketStep(page).getByText('DISCOUNT OR VOUCHER CODE?').click();
      await basketStep(page).getByRole('textbox', { name: /code/i }).fill('NOT-A-CODE');
      await basketStep(page).getByRole('button', { name: /apply/i }).click();
      await expect(basketStep(page).getByText('Invalid code')).toBeVisible();
    },
  },
  {
    name: 'refund policy modal',
    reach: async (page) => {
      await filledBasket(page);
      await basketLine(page, 'General admission').getByRole('button', { name: 'Refund policy' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'captcha',
    base: urls.captcha,
    reach: async (page) => {
      await filledBasket(page);
      await reserveButton(page).click();
      await expectStep(page, 'captcha');
      await expect(page.getByText("I'm not a robot", { exact: true })).toBeVisible();
    },
  },
  {
    name: 'reserve, while the server works',
    reach: async (page) => {
      await filledBasket(page);
      await page.route('**/reserve_tickets/', () => undefined);
      await reserveButton(page).click();
      await expectStep(page, 'reserve');
      await expect(page.getByText('Reserving tickets')).toBeVisible();
    },
  },
  {
    name: 'reserve in an in-app browser',
    userAgent: IN_APP_BROWSER,
    reach: async (page) => {
      await filledBasket(page);
      await reserveButton(page).click();
      await expect(page.getByText('You are using an incompatible browser.')).toBeVisible();
      await page.getByRole('button', { name: 'Why am I seeing this?' }).click();
      await expect(page.getByText(/open links in their own built-in browser/)).toBeVisible();
    },
  },
  {
    name: 'a later step with the countdown',
    reach: heldBasket,
  },
  {
    name: 'a later step with the summary open',
    reach: async (page) => {
      await heldBasket(page);
      const toggle = page.getByRole('button', { name: /show summary/i });
      if (await toggle.isVisible()) await toggle.click();
      await expect(page.getByRole('button', { name: 'Edit basket' })).toBeVisible();
    },
  },
  {
    name: 'login: one-time code sent, with a refused code',
    reach: async (page) => {
      await heldBasket(page);
      await page.getByLabel('Email address').fill(`axe-${Date.now().toString(36)}@example.com`);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Code sent to inbox')).toBeVisible();
      await page.getByLabel('One-time code').fill('000000');
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page.getByLabel('One-time code')).toBeFocused();
    },
  },
  {
    name: 'login: a signed-in buyer confirms the account',
    reach: async (page) => {
      await page.goto('/signin/');
      await page.getByRole('button', { name: 'Continue as Tom Okafor' }).click();
      await heldBasket(page);
      await expect(page.getByRole('button', { name: 'Not you? Sign out' })).toBeVisible();
    },
  },
  {
    name: 'Keep updated',
    reach: async (page) => {
      await page.goto('/signin/');
      await page.getByRole('button', { name: 'Continue as Tom Okafor' }).click();
      await heldBasket(page);
      await advanceTo(page, 'marketing_preferences');
      await expect(page.getByText('Strongly Recommended')).toBeVisible();
    },
  },
  {
    name: 'Donation',
    reach: async (page) => {
      await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
      await reserveButton(page).click();
      await expectStep(page, 'donation');
      await page.getByRole('button', { name: 'Donate' }).click();
      await expect(page.getByText('Choose an amount or click Skip donation')).toBeVisible();
    },
  },
  {
    name: 'Gift Aid with its declaration',
    reach: async (page) => {
      await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
      await reserveButton(page).click();
      await expectStep(page, 'donation');
      await page.getByRole('button', { name: '£25.00', exact: true }).click();
      await page.getByRole('button', { name: 'Donate £25.00' }).click();
      await expectStep(page, 'gift_aid');
      await page.getByRole('switch', { name: "I'd like to add Gift Aid" }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Type your postcode')).toBeVisible();
    },
  },
  {
    name: 'Payment with its problems shown',
    reach: async (page) => {
      await toPayment(page, 'Ashcombe Winter Lantern Trail', { 'Adult (5pm entry)': 1 });
      await page.getByLabel('Contact number (optional)').fill('12ab');
      await page.getByRole('button', { name: /^Pay £/ }).click();
      await expect(page.getByText('Type your postcode or zip code')).toBeVisible();
    },
  },
  {
    name: 'Payment: express details',
    reach: async (page) => {
      await addFromEventPage(page, 'Docklands Street Food Weekend', { tickets: { 'Day pass': 1 } });
      await reserveButton(page).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Complete purchase' })).toBeVisible();
      await page.getByRole('button', { name: /^Pay €/ }).click();
      await expect(page.getByText('Type a valid email address')).toBeVisible();
    },
  },
  {
    name: 'Payment blocked for a SaaS organiser',
    reach: async (page) => {
      await toPayment(page, 'Open-Air Cinema: Jaws', { 'Blanket spot': 1 });
      await expect(
        page.getByText(/payment integration has not yet been configured by Moonlight Screenings/),
      ).toBeVisible();
    },
  },
  {
    name: 'Sandbox card form with a refused card',
    reach: async (page) => {
      await toPayment(page, 'Ashcombe Winter Lantern Trail', { 'Adult (5pm entry)': 1 });
      await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
      await page.getByRole('button', { name: /^Pay £/ }).click();
      await page.getByLabel('Card number').fill('4242 4242 4242 4241');
      await page.getByRole('button', { name: /^Pay £/ }).click();
      await expect(page.getByText('Your card number is incorrect.')).toBeVisible();
    },
  },
  {
    name: 'Sandbox card challenge',
    reach: async (page) => {
      await toPayment(page, 'Ashcombe Winter Lantern Trail', { 'Adult (5pm entry)': 1 });
      await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
      await page.getByRole('button', { name: /^Pay £/ }).click();
      await page.getByLabel('Card number').fill('4000 0000 0000 3220');
      await page.getByLabel('Expiry (MM/YY)').fill('12/34');
      await page.getByLabel('CVC').fill('123');
      await page.getByRole('button', { name: /^Pay £/ }).click();
      await expect(page.getByRole('button', { name: 'Approve payment' })).toBeVisible();
    },
  },
  {
    name: 'Payment in progress: back on the checkout after starting a card payment',
    reach: async (page) => {
      await toPayment(page, 'Ashcombe Winter Lantern Trail', { 'Adult (5pm entry)': 1 });
      await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
      await page.getByRole('button', { name: /^Pay £/ }).click();
      await expect(page.getByLabel('Card number')).toBeVisible();
      await page.goto('/checkout/');
      await expect(page.getByTestId('countdown-paying')).toHaveText(
        'Payment in progress: your tickets are held until the payment finishes.',
      );
    },
  },
  {
    name: 'Delivery address: saved addresses and possible addresses',
    reach: async (page) => {
      await deliveryAddressAs(page, 'Amelia Hughes');
      await page.getByRole('radio', { name: 'Use a new address' }).check();
      await page.getByLabel('Find your address').fill('BS1 4RN');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await expect(page.getByText('10 addresses found: choose yours.')).toBeVisible();
    },
  },
  {
    name: 'Delivery address: manual entry in the USA, with its messages',
    reach: async (page) => {
      await deliveryAddressAs(page, 'Tom Okafor');
      const newAddress = page.getByRole('radio', { name: 'Use a new address' });
      if (await newAddress.isVisible()) await newAddress.check();
      await page.getByRole('button', { name: 'Enter the address manually' }).click();
      await page.getByLabel('Country').selectOption({ label: 'United States' });
      await page.getByLabel('First name').focus();
      await page.getByLabel('State').focus();
      await page.getByLabel('Town or city').focus();
      await expect(page.getByText('Choose the state')).toBeVisible();
    },
  },
  {
    name: 'Ticket questions, a missing answer pointed out',
    reach: async (page) => {
      await signInAsNewBuyer(page);
      await addFromEventPage(page, 'Ashcombe Winter Lantern Trail', {
        tickets: { 'Adult (5pm entry)': 1, 'Child (5pm entry)': 1 },
      });
      await reserveButton(page).click();
      await advanceTo(page, 'ticket_questions_before');
      await page.getByLabel('Name of the person using this ticket').fill('x'.repeat(295));
      await page
        .locator('[data-step="ticket_questions_before"] form')
        .getByRole('button', { name: 'Continue' })
        .click();
      await expect(page.getByText('Please enter your answer')).toBeVisible();
    },
  },
  {
    name: 'Edit basket confirmation',
    reach: async (page) => {
      await heldBasket(page);
      const toggle = page.getByRole('button', { name: /show summary/i });
      if (await toggle.isVisible()) await toggle.click();
      await page.getByRole('button', { name: 'Edit basket' }).click();
      await expect(page.getByRole('dialog', { name: 'Are you sure?' })).toBeVisible();
    },
  },
  {
    name: 'delivering tickets, the wallet stage in progress',
    reach: async (page) => {
      // The wallet e-mail never answers while the screen is scanned.
      await page.route('**/ajax/checkout/checkout/deliver_to_wallet/', () => undefined);
      await freeOrderOnDelivery(page, 1);
      await expect(page.locator('.delivery__stage[data-status="delivering"]')).toBeVisible();
    },
  },
  {
    name: 'delivery failed, with Try again',
    reach: async (page) => {
      await failCall(page, '/ajax/checkout/checkout/deliver_to_bitticket/');
      await freeOrderOnDelivery(page, 1);
      await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    },
  },
  {
    name: 'order completed',
    reach: async (page) => {
      await freeOrderOnDelivery(page, 1);
      await throughDelivery(page);
      await expectStep(page, 'order_completed');
      await expect(page.getByText('Order complete! Your tickets are on their way.')).toBeVisible();
    },
  },
  {
    name: 'ticket wallet',
    reach: async (page) => {
      await freeOrderOnDelivery(page, 1);
      await throughDelivery(page);
      await expectStep(page, 'order_completed');
      await page.getByRole('link', { name: 'Go to ticket wallet' }).click();
      await expect(page.locator('.wallet-ticket svg.qr')).toBeVisible();
    },
  },
];

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    if (screen.base) test.use({ baseURL: screen.base });
    if (screen.userAgent) test.use({ userAgent: screen.userAgent });

    test(`${screen.name}: no axe violations`, async ({ page }) => {
      await screen.reach(page);
      await expectAccessibleAtBothWidths(page, screen.name);
    });
  });
}
