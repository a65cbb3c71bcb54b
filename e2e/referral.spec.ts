/**
 * A share link honoured, as buyers use it: a buyer's order completed offers 'Share & get a free
 * cream tea' with their referral link; a friend opens that link in a browser of their own, books,
 * and once the friend's tickets are delivered the buyer's mailbox holds the reward the event
 * states, with a reference to show the organiser. (The 10 % code of *Summer Jazz on the Quay* is
 * redeemed at checkout in server/referrals.test.ts, through the same code panel as any code.)
 */
import { freeOrderOnDelivery, reachDelivery } from './freeOrder.ts';
import { expect, expectStep, test, throughDelivery } from './support.ts';

test('a friend who books through the share link earns the buyer the reward the event states', async ({ page, browser }) => {
  test.slow();
  await page.route('https://www.stay22.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Places to stay</title>' }));
  const referrer = await freeOrderOnDelivery(page, 1);
  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  await page.getByRole('list', { name: 'What next' }).getByRole('button', { name: 'Share & get a free cream tea' }).click();
  const shared = await page.getByRole('dialog', { name: 'Share & get a free cream tea' }).getByLabel('Message to share').inputValue();
  const link = /(http:\/\/\S+\/event\/\d+\/\?ref=\S+)$/.exec(shared)![1]!;

  const friendContext = await browser.newContext();
  try {
    const friend = await friendContext.newPage();
    await friend.goto(link);
    await expect(friend.getByRole('heading', { level: 1, name: 'Community Open Day' })).toBeVisible();
    // The friend books the way any buyer does (from the catalogue), in the browser that opened the link.
    await reachDelivery(friend, friendContext, 1);
    await throughDelivery(friend);
    await expectStep(friend, 'order_completed');
  } finally {
    await friendContext.close();
  }

  await page.goto(`/dev/mailbox?to=${encodeURIComponent(referrer.email)}`);
  const reward = page.locator('.mail').filter({ hasText: 'A friend booked Community Open Day: here is your reward' });
  await expect(reward).toHaveCount(1);
  await expect(reward).toContainText('you get a free cream tea in the walled garden café.');
  await expect(reward).toContainText(/Your reward reference is REWARD-[A-Z2-9]{8}\. Show this e-mail to Ashcombe Estate to claim it\./);
});
