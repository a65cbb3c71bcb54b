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
import type { Page } from '@playwright/test';
import type { Step } from '../contract/index.ts';
import { addFromEventPage, advanceTo, codeFromMailbox, expect, freshEmail, reserveButton } from './support.ts';

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

/** Each step on the way answered the simplest valid way (`advanceTo`), the buyer signing in with the mailed code, until `until` shows. */
export async function continueUntil(page: Page, buyer: Buyer, until: Step): Promise<void> {
  await advanceTo(page, until, { buyer });
}

/**
 * A new buyer with `qty` free tickets reserved, on the deliver_tickets step. The page's clock is
 * installed first, so a test runs the step's pauses on with `throughDelivery`.
 */
export async function reachDelivery(page: Page, qty = 2): Promise<Buyer> {
  const buyer = newBuyer();
  await page.clock.install();
  await addFromEventPage(page, FREE_EVENT, { tickets: { [FREE_TICKET]: qty } });
  await reserveButton(page).click();
  await continueUntil(page, buyer, 'deliver_tickets');
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
