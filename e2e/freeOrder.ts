/**
 * A new buyer's free order, through the real app and server, up to the step a test wants: free
 * tickets of the seeded 'Community Open Day', reserved, signed in with the one-time code from the
 * development mailbox, and on through the steps the basket needs (a donation is skipped, Keep
 * updated is left as it is); a zero total claims the free tickets by itself.
 *
 * `reachDelivery` walks there through the screens; `freeOrderOnDelivery` makes the same calls the
 * app makes on that walk itself, from the page's own browser (same cookies), and opens the checkout
 * on the delivery step, for tests whose subject comes after it.
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { Step } from '../contract/index.ts';
import { addFromEventPage, codeFromMailbox, expect, freshEmail, reserveButton, throughDelivery } from './support.ts';

export const FREE_EVENT = 'Community Open Day';
export const FREE_TICKET = 'Free entry';

export interface Buyer {
  email: string;
  fullName: string;
}

export const newBuyer = (): Buyer => ({
  email: freshEmail('wallet'),
  fullName: 'Ada Lovelace',
});

async function stepOf(page: Page): Promise<string | null> {
  return page.locator('[data-step]').first().getAttribute('data-step', { timeout: 10_000 });
}

async function leaves(page: Page, step: string) {
  await expect(page.locator(`[data-step="${step}"]`)).toHaveCount(0, { timeout: 15_000 });
}

/** Answers each step on the way until `until` shows. */
export async function continueUntil(page: Page, context: BrowserContext, buyer: Buyer, until: string): Promise<void> {
  const deadline = Date.now() + 50_000;
  while (Date.now() < deadline) {
    const step = await stepOf(page);
    if (step === until) return;
    if (step === 'donation') {
      await page.getByRole('button', { name: 'Skip donation' }).click();
      await leaves(page, step);
    } else if (step === 'login') {
      const emailField = page.getByLabel('Email address');
      const nameField = page.getByLabel('Full name');
      if (await emailField.isVisible()) {
        await emailField.fill(buyer.email);
        await page.getByRole('button', { name: 'Continue' }).click();
        await expect(page.getByText('Code sent to inbox')).toBeVisible();
        await page.getByLabel('One-time code').fill(await codeFromMailbox(context, buyer.email));
        await page.getByRole('button', { name: 'Verify' }).click();
        await expect(nameField.or(page.locator('[data-step]:not([data-step="login"])'))).toBeVisible();
      } else if (await nameField.isVisible()) {
        await nameField.fill(buyer.fullName);
        await page.getByRole('button', { name: 'Continue' }).click();
        await leaves(page, step);
      } else {
        // The step is drawing its next part: one of the fields, or the next step.
        await expect(
          emailField.or(nameField).or(page.locator('[data-step]:not([data-step="login"])')).first(),
        ).toBeVisible();
      }
    } else if (step === 'deliver_tickets') {
      await throughDelivery(page);
    } else if (step === 'marketing_preferences') {
      await page.getByRole('button', { name: 'Continue' }).click();
      await leaves(page, step);
    } else if (step !== null) {
      // Reserving, determining, or the free payment claiming the tickets: it moves on by itself.
      await leaves(page, step);
    }
  }
  throw new Error(`the checkout did not reach ${until}; it is on ${await stepOf(page)}`);
}

/**
 * A new buyer with `qty` free tickets reserved, on the deliver_tickets step. The page's clock is
 * installed first, so a test runs the step's pauses on with `throughDelivery`.
 */
export async function reachDelivery(page: Page, context: BrowserContext, qty = 2): Promise<Buyer> {
  const buyer = newBuyer();
  await page.clock.install();
  await addFromEventPage(page, FREE_EVENT, { tickets: { [FREE_TICKET]: qty } });
  await reserveButton(page).click();
  await continueUntil(page, context, buyer, 'deliver_tickets');
  return buyer;
}

/** One of the app's calls, sent from the page's browser; it must succeed. */
async function call(page: Page, path: string, form: Record<string, string> = {}): Promise<unknown> {
  const response = await page.request.post(path, { form, headers: { accept: 'application/json' } });
  expect(response.ok(), `${path} answered ${response.status()}: ${await response.text()}`).toBe(true);
  return response.json();
}

const saveStep = (page: Page, state: Step) => call(page, '/ajax/checkout/checkout/update_basket_state/', { state });

/**
 * A new buyer's free order of `qty` tickets, made with the app's own calls in the order the app
 * makes them (added from the event page's form, reserved, signed in with the mailed code, named,
 * Keep updated as it is, the free tickets claimed), then the checkout opened where the buyer would
 * be: on the deliver_tickets step, which runs as usual. The page's clock is installed first, so the
 * test runs the step's pauses on with `throughDelivery`.
 */
export async function freeOrderOnDelivery(page: Page, qty = 2): Promise<Buyer> {
  const buyer = newBuyer();
  await page.clock.install();
  await page.goto('/all-events/');
  await page.getByRole('link', { name: FREE_EVENT }).first().click();
  await page.getByLabel(`Quantity of ${FREE_TICKET}`, { exact: true }).fill(String(qty));
  const order = await page
    .locator('form#add')
    .evaluate((form) =>
      Object.fromEntries([...new FormData(form as HTMLFormElement)].map(([name, value]) => [name, String(value)])),
    );
  await call(page, '/do/checkout/add/', order);
  expect(await call(page, '/ajax/checkout/checkout/reserve_tickets/')).toMatchObject({ reserved: true });
  await saveStep(page, 'login');
  await call(page, '/ajax/user/user/send_one_time_code/', { email: buyer.email });
  const code = await codeFromMailbox(page.context(), buyer.email);
  expect(await call(page, '/ajax/user/user/check_one_time_code/', { email: buyer.email, code })).toEqual({
    has_account: false,
  });
  await call(page, '/ajax/checkout/checkout/save_guest_to_sale/', { email: buyer.email, fullname: buyer.fullName });
  await saveStep(page, 'marketing_preferences');
  await call(page, '/ajax/checkout/checkout/set_marketing_preferences/', {
    ct_subscribed: 'false',
    event_subscribed: 'false',
  });
  await saveStep(page, 'payment');
  await call(page, '/ajax/checkout/checkout/claim_free_tickets/');
  await saveStep(page, 'deliver_tickets');
  await page.goto('/checkout/');
  await expect(page.locator('[data-step="deliver_tickets"]')).toBeVisible();
  return buyer;
}
