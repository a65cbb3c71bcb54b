/**
 * Delivery through the real app and server (spec 001 §2 Delivery progress and Order completed,
 * §4 Delivery, §8): free tickets delivered into the ticket wallet and the wallet e-mailed; the
 * order-completed screen; /account/wallet/ with a QR code per ticket; the wallet e-mail in the
 * development mailbox; each delivery failure text from a failing call.
 */
import type { Page } from '@playwright/test';
import { expect, expectStep, failCall, photographBothWidths, test, throughDelivery } from './support.ts';
import { FREE_EVENT, FREE_TICKET, freeOrderOnDelivery, reachDelivery } from './freeOrder.ts';

const BITTICKET = '/ajax/checkout/checkout/deliver_to_bitticket/';
const WALLET = '/ajax/checkout/checkout/deliver_to_wallet/';

const stage = (page: Page, name: string) => page.locator('.delivery__stage').filter({ hasText: name });
const TICKETS_STAGE = 'Delivering your tickets to your ticket wallet';
const WALLET_STAGE = 'Sending your ticket wallet by e-mail';

test('free tickets go into the wallet page with a QR code each, and the wallet e-mail is in the mailbox', async ({
  page,
}, testInfo) => {
  test.slow();
  // The wallet stage is held back while the screen is photographed in progress.
  let releaseWallet: () => void = () => {};
  const walletHeld = new Promise<void>((resolve) => (releaseWallet = resolve));
  await page.route(`**${WALLET}`, async (route) => {
    await walletHeld;
    await route.continue();
  });

  const buyer = await reachDelivery(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Delivering tickets' })).toBeVisible();
  await expect(stage(page, TICKETS_STAGE)).toHaveAttribute('data-status', 'delivered');
  await expect(stage(page, WALLET_STAGE)).toHaveAttribute('data-status', 'delivering');
  await photographBothWidths(page, testInfo, 'delivering');
  releaseWallet();
  await expect(stage(page, WALLET_STAGE)).toHaveAttribute('data-status', 'delivered');
  await throughDelivery(page);

  await expectStep(page, 'order_completed');
  const reference = page.getByText(/^Your reference is HF-[A-Z0-9]+$/);
  await expect(reference).toBeVisible();
  const saleReference = (await reference.textContent())!.replace('Your reference is ', '');
  await expect(page.getByText('Order complete! Your tickets are on their way.')).toBeVisible();
  await expect(page.getByText(`A copy of your ticket wallet has been sent to ${buyer.email}`)).toBeVisible();
  await photographBothWidths(page, testInfo, 'order-completed');

  await page.getByRole('link', { name: 'Go to ticket wallet' }).click();
  await expect(page).toHaveURL(/\/account\/wallet\/$/);
  const tickets = page.locator('.wallet-ticket');
  await expect(tickets).toHaveCount(2);
  const codes: string[] = [];
  for (const ticket of await tickets.all()) {
    const code = (await ticket.getAttribute('data-code'))!;
    codes.push(code);
    await expect(ticket.getByRole('img', { name: `QR code of ticket ${code}` })).toBeVisible();
    await expect(ticket.getByRole('heading', { name: FREE_EVENT })).toBeVisible();
    await expect(ticket.getByText(FREE_TICKET, { exact: true })).toBeVisible();
    await expect(ticket.getByText('General admission')).toBeVisible();
    await expect(ticket.getByText(buyer.fullName, { exact: true })).toBeVisible();
    await expect(ticket.getByText(saleReference, { exact: true })).toBeVisible();
  }
  expect(new Set(codes).size).toBe(2);
  await photographBothWidths(page, testInfo, 'wallet');

  await page.goto(`/dev/mailbox?to=${encodeURIComponent(buyer.email)}`);
  const mail = page.locator('.mail').filter({ hasText: `Your tickets (${saleReference})` });
  await expect(mail).toHaveCount(1);
  for (const code of codes) await expect(mail.getByText(`Ticket code: ${code}`)).toBeVisible();
  await expect(mail.getByText(/\/account\/wallet\//)).toBeVisible();
});

test('a failed delivery call is told in the spec’s words and can be tried again, stage by stage', async ({
  page,
}, testInfo) => {
  test.slow();
  await failCall(page, BITTICKET);
  await failCall(page, WALLET, 'abort');
  await freeOrderOnDelivery(page, 1);
  await expect(page.getByText('Unable to deliver to BitTicket. Please try again later')).toBeVisible();
  await expect(stage(page, TICKETS_STAGE)).toHaveAttribute('data-status', 'failed');
  await photographBothWidths(page, testInfo, 'delivery-bitticket-failed');

  await page.unroute(`**${BITTICKET}`);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('Unable to deliver to Wallet. Please try again later')).toBeVisible();
  await expect(stage(page, TICKETS_STAGE)).toHaveAttribute('data-status', 'delivered');
  await expect(stage(page, WALLET_STAGE)).toHaveAttribute('data-status', 'failed');

  await page.unroute(`**${WALLET}`);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('Unable to deliver to Wallet. Please try again later')).toHaveCount(0);
  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  await expect(page.getByText('Order complete! Your tickets are on their way.')).toBeVisible();
});

test('a delivery the server reports as not completed asks the buyer to contact support, with code 2961', async ({
  page,
}, testInfo) => {
  test.slow();
  await page.route(`**${BITTICKET}`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"delivery_completed":false}' }),
  );
  await freeOrderOnDelivery(page, 1);
  await expect(page.getByText('Delivery failed. Please contact support')).toBeVisible();
  await expect(page.getByText('Error code 2961')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await photographBothWidths(page, testInfo, 'delivery-failed');
});
