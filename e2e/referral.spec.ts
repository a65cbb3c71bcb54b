/**
 * A share link honoured, as buyers use it: a buyer's order completed offers 'Share & get a free
 * cream tea' with their referral link; a friend with an account of their own (their address
 * proven by its code) opens that link in a browser of their own, pays for a ticket, and once the
 * friend's tickets are delivered the buyer's mailbox holds the reward the booked event states:
 * for *Summer Jazz on the Quay* a single-use 10 % code. (Free tickets, addresses no one proved and
 * a friend's second purchase earn nothing: server/domain/referrals.test.ts.)
 */
import { freeOrderOnDelivery } from './freeOrder.ts';
import {
  addFromEventPage,
  advanceTo,
  expect,
  expectStep,
  fillBillingAddress,
  reserveButton,
  signInAsNewBuyer,
  test,
  throughDelivery,
} from './support.ts';

test('a friend who pays through the share link earns the buyer the reward the event states', async ({
  page,
  browser,
}) => {
  test.slow();
  await page.route('https://www.stay22.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Places to stay</title>' }),
  );
  const referrer = await freeOrderOnDelivery(page, 1);
  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  await page
    .getByRole('list', { name: 'What next' })
    .getByRole('button', { name: 'Share & get a free cream tea' })
    .click();
  const shared = await page
    .getByRole('dialog', { name: 'Share & get a free cream tea' })
    .getByLabel('Message to share')
    .inputValue();
  const link = /(http:\/\/\S+\/event\/\d+\/\?ref=\S+)$/.exec(shared)![1]!;

  const friendContext = await browser.newContext();
  try {
    const friend = await friendContext.newPage();
    await signInAsNewBuyer(friend, 'Fern Friend');
    await friend.goto(link);
    await expect(friend.getByRole('heading', { level: 1, name: 'Community Open Day' })).toBeVisible();
    // The friend books the way any buyer does (from the catalogue), in the browser that opened the link, and pays by card.
    await addFromEventPage(friend, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
    await reserveButton(friend).click();
    await advanceTo(friend, 'payment');
    await fillBillingAddress(friend);
    await friend.getByRole('button', { name: /^Pay £/ }).click();
    await friend.getByLabel('Card number').fill('4242 4242 4242 4242');
    await friend.getByLabel('Expiry (MM/YY)').fill('12/34');
    await friend.getByLabel('CVC').fill('123');
    await friend.getByRole('button', { name: /^Pay £/ }).click();
    await expectStep(friend, 'deliver_tickets');
    await throughDelivery(friend);
    await expectStep(friend, 'order_completed');
  } finally {
    await friendContext.close();
  }

  await page.goto(`/dev/mailbox?to=${encodeURIComponent(referrer.email)}`);
  const reward = page
    .locator('.mail')
    .filter({ hasText: 'A friend booked Summer Jazz on the Quay: here is your reward' });
  await expect(reward).toHaveCount(1);
  await expect(reward).toContainText('you get 10% off your next Riverside Arts ticket.');
  await expect(reward).toContainText(
    /Your code THANKS-[A-Z2-9]{8} takes 10% off your next Riverside Arts Collective ticket\./,
  );
});
