/**
 * Paying by instant bank transfer with the sandbox bank, as the end-to-end tests do it: the spec's
 * texts, the way to the payment step, the bank's page and the wait messages the screen shows.
 */
import type { Page } from '@playwright/test';
import { expect, expectStep, newBuyerAt } from './support.ts';

/** Spec 001 §8 and §4. */
export const TEXT = {
  redirectFailed: 'There was an error with taking you to Truelayer. Please try again.',
  cancelled: 'You cancelled the payment in the bank portal.',
  unableToGetStatus: 'Unable to get Truelayer status. Please try again later',
  expired:
    'Your payment was unsuccessful and the checkout time expired. If the tickets are still available, you can try to reserve them again',
  after3: 'Waiting for a response from your bank',
  after6: 'Awaiting confirmation of payment',
  after9: "It's taking longer than usual for confirmation of your payment.",
  switch: 'Try a different payment method',
};
export const FIRST_WAIT = 'Checking with your bank';
export const NOT_CONFIRMED =
  /Your payment is not confirmed yet\. If your bank confirms it, your tickets will be delivered/;

/** A new buyer, signed in, with one seat of the folk club's night held, on the payment step. */
export async function toFolkPayment(page: Page) {
  await newBuyerAt(page, 'Folk at the Ropewalk', { tickets: { 'Session seat': 1 } });
}

/** Chooses the bank transfer, fills the billing postcode and pays: the browser goes to the bank. */
export async function payByBank(page: Page) {
  await page.getByRole('radio', { name: 'Instant Bank Transfer' }).check();
  await page.getByLabel('Postcode or zip code').fill('BS1 4QH');
  await page.getByRole('button', { name: 'Pay £15.00 by bank transfer' }).click();
}

export async function atBank(
  page: Page,
  decision: 'Approve payment' | 'Approve slowly' | 'Cancel payment',
  delaySeconds?: number,
) {
  await expect(page).toHaveURL(/\/sandbox\/bank\/\?token=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Approve a payment of £15.00' })).toBeVisible();
  if (delaySeconds !== undefined) await page.getByLabel('Bank answers after (seconds)').fill(String(delaySeconds));
  await page.getByRole('button', { name: decision }).click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expectStep(page, 'awaiting_truelayer');
}

/** Every wait message the screen shows, in order, recorded in the page as it changes. */
export async function recordWaitMessages(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { bankMessages: string[] }).bankMessages = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="bank-wait-message"]')?.textContent?.trim();
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { bankMessages: string[] }).bankMessages);
}
