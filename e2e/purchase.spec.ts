/**
 * A full card purchase on a phone (360 px), as a newcomer: basket, reserve, sign in with the code
 * from the development mailbox, Keep updated, the ticket questions, payment by card, delivery, the
 * completed order and the ticket wallet. Each screen is photographed into docs/screenshots for the
 * README's 'A full purchase on a phone'.
 */
import type { Page } from '@playwright/test';
import {
  advanceTo,
  addFromEventPage,
  basketLine,
  codeFromMailbox,
  expect,
  expectStep,
  photograph,
  reserveButton,
  test,
  throughDelivery,
} from './support.ts';
import { newBuyer } from './freeOrder.ts';

const EVENT = 'Ashcombe Winter Lantern Trail';
const TICKET = 'Adult (5pm entry)';
const WALLET = '/ajax/checkout/checkout/deliver_to_wallet/';

/** The screen as a phone shows it, whole, for the README. */
const photographStep = (page: Page, step: string) =>
  photograph(page, `docs/screenshots/phone-purchase-${step}.png`, { fullPage: true });

test('a newcomer buys a ticket by card on a phone, from the basket to the wallet', async ({ page, context }) => {
  test.setTimeout(120_000);
  expect(page.viewportSize()?.width).toBe(360);
  const buyer = newBuyer();
  await page.clock.install();

  await addFromEventPage(page, EVENT, { tickets: { [TICKET]: 1 } });
  await expect(basketLine(page, TICKET)).toBeVisible();
  await reserveButton(page).click();

  // Sign in with the one-time code sent by e-mail.
  await expectStep(page, 'login');
  await expect(page.getByTestId('countdown-clock')).toBeVisible();
  await page.getByLabel('Email address').fill(buyer.email);
  await photographStep(page, 'sign-in');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Code sent to inbox')).toBeVisible();
  await page.getByLabel('One-time code').fill(await codeFromMailbox(context, buyer.email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByLabel('Full name').fill(buyer.fullName);
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.locator('[data-step="login"]')).toHaveCount(0);
  // A charity's donation is skipped when the basket's organiser has one.
  await advanceTo(page, 'marketing_preferences');
  await photographStep(page, 'keep-updated');
  await advanceTo(page, 'payment');
  await expect(page.getByRole('heading', { level: 1, name: 'Payment' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Credit or Debit Card' })).toBeChecked();
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Address line 1').fill('4 Mill Lane');
  await page.getByLabel('Town or city').fill('Cirencester');
  await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
  await photographStep(page, 'payment');
  await page.getByRole('button', { name: /^Pay £/ }).click();

  await expect(page).toHaveURL(/\/sandbox\/card\//);
  await expect(page.getByRole('heading', { level: 1, name: /^Pay £\d+\.\d\d by card$/ })).toBeVisible();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await photographStep(page, 'card');

  // The wallet e-mail is held back while the delivery screen is photographed.
  let releaseWallet: () => void = () => {};
  const walletHeld = new Promise<void>((resolve) => (releaseWallet = resolve));
  await page.route(`**${WALLET}`, async (route) => {
    await walletHeld;
    await route.continue();
  });
  await page.getByRole('button', { name: /^Pay £/ }).click();

  await expect(page).toHaveURL(/\/checkout\/$/);
  await expectStep(page, 'deliver_tickets');
  await expect(page.getByRole('heading', { level: 1, name: 'Delivering tickets' })).toBeVisible();
  await expect(
    page.locator('.delivery__stage').filter({ hasText: 'Delivering your tickets to your ticket wallet' }),
  ).toHaveAttribute('data-status', 'delivered');
  await photographStep(page, 'delivered');
  releaseWallet();
  await throughDelivery(page);

  // The questions asked after payment: the optional one left empty, the order's arrival point chosen.
  await expectStep(page, 'ticket_questions_after');
  const questions = page.locator('[data-step="ticket_questions_after"] form');
  await expect(questions.getByLabel('Anything our first-aid team should know about this person?')).toBeVisible();
  await questions.getByRole('button', { name: 'Continue' }).click();
  await questions.getByLabel('Where will you arrive from?').selectOption({ index: 1 });
  await questions.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'order_completed');
  await expect(page.getByText('Order complete! Your tickets are on their way.')).toBeVisible();
  const reference = page.getByText(/^Your reference is HF-[A-Z0-9]+$/);
  await expect(reference).toBeVisible();
  const saleReference = (await reference.textContent())!.replace('Your reference is ', '');
  await expect(page.getByText(`A copy of your ticket wallet has been sent to ${buyer.email}`)).toBeVisible();
  await photographStep(page, 'order-completed');

  await page.getByRole('link', { name: 'Go to ticket wallet' }).click();
  await expect(page).toHaveURL(/\/account\/wallet\/$/);
  const ticket = page.locator('.wallet-ticket');
  await expect(ticket).toHaveCount(1);
  await expect(ticket.getByRole('heading', { name: EVENT })).toBeVisible();
  await expect(ticket.getByText(TICKET, { exact: true })).toBeVisible();
  await expect(ticket.getByText(saleReference, { exact: true })).toBeVisible();
  const code = (await ticket.getAttribute('data-code'))!;
  await expect(ticket.getByRole('img', { name: `QR code of ticket ${code}` })).toBeVisible();
  await photographStep(page, 'wallet');
});
