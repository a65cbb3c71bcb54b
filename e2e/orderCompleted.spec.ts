/**
 * Order completed through the real app and server (spec 001 §2 "Order completed", "Find a place to
 * stay", "After sale messages", §4 "Other", §7, §8, §9): each tile's rule, the feedback modal and
 * its e-mail to the organiser, subscribing, sharing and copying, the accommodation map per event,
 * the Back links, and the failures the spec words. The free Community Open Day has a livestream, a
 * referral reward and a venue, so every tile shows; other cases change the checkout as read.
 */
import type { Page, Route } from '@playwright/test';
import type { Checkout } from '../contract';
import { expectNoAxeViolations, findSmallTargets } from './a11y.ts';
import { FREE_EVENT, freeOrderOnDelivery, newBuyer, type Buyer } from './freeOrder.ts';
import {
  advanceTo,
  addFromEventPage,
  expect,
  expectStep,
  failCall,
  pauseClock,
  photograph,
  reserveButton,
  test,
  throughDelivery,
  withoutPageData,
} from './support.ts';

const FEEDBACK = '/ajax/checkout/checkout/send_customer_feedback/';
const SUBSCRIBE = '/ajax/checkout/checkout/subscribe_to_events/';
const REFERRER = '/ajax/checkout/checkout/get_reward_referrer_link/';
const GET_CHECKOUT = '/ajax/checkout/checkout/get/';

const FEEDBACK_SENT = 'Your feedback has been sent. Thanks!';
const FEEDBACK_FAILED = 'Unable to send feedback. Please try again';
const SUBSCRIBED = 'You have been subscribed to important event updates';
const SUBSCRIBE_FAILED = 'Unable to add to subscription. Please try again later';
const SUBSCRIBE_LINK = 'Subscribe to important updates';
const OPEN_DAY_REWARD =
  'Bring your friends to the Open Day: for every friend who books with your link, you get a free cream tea in the walled garden café.';

/** The accommodation map's provider, answered here as the machine has no internet. */
async function stubMapProvider(page: Page) {
  await page.route('https://www.stay22.com/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><title>Places to stay</title><h1>Places to stay</h1></html>',
    }),
  );
}

async function reachOrderCompleted(page: Page, qty = 2): Promise<Buyer> {
  await stubMapProvider(page);
  const buyer = await freeOrderOnDelivery(page, qty);
  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  await expect(page.getByText('Order complete! Your tickets are on their way.')).toBeVisible();
  return buyer;
}

const tiles = (page: Page) => page.getByRole('list', { name: 'What next' });
/** A notification: success waits its turn (status), a failure interrupts (alert). */
const notice = (page: Page, kind: 'status' | 'alert', text: string) => page.getByRole(kind).filter({ hasText: text });

test('every tile of a free Open Day order, the share text with its reward and the copy button', async ({
  page,
  context,
  baseURL,
}) => {
  test.slow();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.clock.install();
  await reachOrderCompleted(page);

  // Tiles in the spec's order: livestream, wallet, feedback, transfer, find a place to stay, share.
  await expect(tiles(page).getByRole('listitem')).toHaveText([
    /How to watch the livestream/,
    /Go to ticket wallet/,
    /How did we do\?/,
    /Transfer tickets/,
    /Find a place to stay/,
    /Share & get a free cream tea/,
  ]);
  await expect(tiles(page).getByRole('link', { name: /How to watch the livestream/ })).toHaveAttribute(
    'href',
    'https://live.ashcombe-estate.example/open-day',
  );
  await expect(tiles(page).getByRole('button', { name: /Transfer tickets/ })).toBeEnabled();

  // 'Browse more events' from the organiser, below the tiles.
  const browse = page.getByRole('region', { name: 'Browse more events' });
  await expect(browse.getByText('From Ashcombe Estate')).toBeVisible();
  await expect(browse.getByRole('link', { name: /Ashcombe Winter Lantern Trail/ }).first()).toBeVisible();
  // Not the event just bought.
  await expect(browse.getByRole('link', { name: new RegExp(FREE_EVENT) })).toHaveCount(0);

  await expectNoAxeViolations(page, 'order completed');
  await photograph(page, 'docs/screenshots/desktop-order-completed.png', { fullPage: true });

  // Share: the reward text followed by the buyer's referral link, copied, 'Copied' for 2 seconds.
  await tiles(page).getByRole('button', { name: 'Share & get a free cream tea' }).click();
  const share = page.getByRole('dialog', { name: 'Share & get a free cream tea' });
  const text = share.getByLabel('Message to share');
  await expect(text).toHaveValue(
    new RegExp(`^${escape(OPEN_DAY_REWARD)} ${escape(baseURL!)}/event/\\d+/\\?ref=[0-9a-z]+-[0-9a-z]+-[\\w-]{16}$`),
  );
  await pauseClock(page);
  await share.getByRole('button', { name: 'Copy' }).click();
  await expect(share.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await text.inputValue());
  await page.clock.runFor(1_999);
  await expect(share.getByRole('button', { name: 'Copied' })).toBeVisible();
  await page.clock.runFor(2);
  await expect(share.getByRole('button', { name: 'Copy' })).toBeVisible();
  await page.clock.resume();
  await expectNoAxeViolations(page, 'the share dialog');
  await share.getByRole('button', { name: 'Close' }).click();
  await expect(share).toBeHidden();

  // The livestream tile leads to its online access address.
  const live = tiles(page).getByRole('link', { name: /How to watch the livestream/ });
  await page.route('https://live.ashcombe-estate.example/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Live</title>' }),
  );
  await live.click();
  await expect(page).toHaveURL('https://live.ashcombe-estate.example/open-day');
});

test('How did we do? is sent to the organiser, and a failure says so; the modal closes either way', async ({
  page,
  context,
}) => {
  test.slow();
  const buyer = await reachOrderCompleted(page, 1);
  const feedbackTile = tiles(page).getByRole('button', { name: 'How did we do?' });
  await feedbackTile.click();
  const modal = page.getByRole('dialog', { name: 'How did we do?' });
  const message = modal.getByLabel('Tell the organiser about your booking');
  await expect(message).toBeFocused();
  const send = modal.getByRole('button', { name: 'Send' });
  await expect(send).toBeDisabled();
  await message.fill('   ');
  await expect(send).toBeDisabled();
  // The modal keeps focus inside it.
  for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
  await expect(modal.locator(':focus')).toHaveCount(1);
  await expectNoAxeViolations(page, 'the feedback modal');

  const words = `Signposts to the café would help. (${buyer.email})`;
  await message.fill(words);
  // Send is disabled while sending.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${FEEDBACK}`, async (route) => {
    await held;
    await route.continue();
  });
  await send.click();
  await expect(send).toBeDisabled();
  release();
  await expect(notice(page, 'status', FEEDBACK_SENT)).toBeVisible();
  await expect(modal).toBeHidden();
  await page.unroute(`**${FEEDBACK}`);

  // The organiser (Ashcombe Estate) has it in their inbox, with who wrote it.
  const mailbox = await context.newPage();
  await mailbox.goto(`/dev/mailbox?to=${encodeURIComponent('visits@ashcombe-estate.example')}`);
  await expect(mailbox.locator('.mail__body').filter({ hasText: words })).toContainText(
    `Ada Lovelace <${buyer.email}>`,
  );
  await mailbox.close();

  // A failed call: its message, and the modal closes.
  await page.getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(notice(page, 'status', FEEDBACK_SENT)).toHaveCount(0);
  await failCall(page, FEEDBACK);
  await feedbackTile.click();
  await message.fill('Second thoughts');
  await send.click();
  await expect(notice(page, 'alert', FEEDBACK_FAILED)).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(feedbackTile).toBeFocused();
});

test('Subscribe to important updates: a failure says so and keeps the link; success subscribes and the link goes', async ({
  page,
}) => {
  test.slow();
  await reachOrderCompleted(page, 1);
  const link = page.getByRole('button', { name: SUBSCRIBE_LINK });
  await expect(link).toBeVisible();

  await failCall(page, SUBSCRIBE);
  await link.click();
  await expect(notice(page, 'alert', SUBSCRIBE_FAILED)).toBeVisible();
  await expect(link).toBeVisible();
  await page.unroute(`**${SUBSCRIBE}`);

  await link.click();
  await expect(notice(page, 'status', SUBSCRIBED)).toBeVisible();
  await expect(link).toBeHidden();
  // The buyer is subscribed: after a reload the link stays away.
  await page.reload();
  await expectStep(page, 'order_completed');
  await expect(tiles(page)).toBeVisible();
  await expect(page.getByRole('button', { name: SUBSCRIBE_LINK })).toHaveCount(0);
});

test('Find a place to stay and Transfer tickets open with focus on their heading, and Back returns to the overview', async ({
  page,
}, testInfo) => {
  test.slow();
  await reachOrderCompleted(page, 2);
  await tiles(page).getByRole('button', { name: 'Find a place to stay' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Find a place to stay' })).toBeFocused();
  const frame = page.locator('iframe.stay-map__frame');
  const src = new URL((await frame.getAttribute('src'))!);
  expect(src.origin + src.pathname).toBe('https://www.stay22.com/embed/gm');
  expect(Object.fromEntries(src.searchParams)).toMatchObject({
    aid: 'holdfast',
    address: 'Ashcombe, Cirencester GL7 5HX',
    adults: '2',
    hidebrandlogo: 'true',
    hidenavbar: 'true',
    maincolor: '0f766e',
  });
  expect(src.searchParams.get('checkin')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  // One event: no per-event links.
  await expect(page.getByRole('button', { name: /Find a place to stay near the/ })).toHaveCount(0);
  await expect(
    page.frameLocator('iframe.stay-map__frame').getByRole('heading', { name: 'Places to stay' }),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'find a place to stay');
  await photograph(page, testInfo.outputPath('find-a-place.png'), { fullPage: true });
  await page.getByRole('button', { name: 'Back to your order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Order complete' })).toBeFocused();
  await expect(tiles(page)).toBeVisible();

  await tiles(page).getByRole('button', { name: 'Transfer tickets' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Transfer tickets' })).toBeFocused();
  await page.getByRole('button', { name: 'Back to your order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Order complete' })).toBeFocused();
  await expect(tiles(page).getByRole('button', { name: 'How did we do?' })).toBeVisible();
});

test('once the tickets are transferred, Transfer tickets is no longer offered', async ({ page }) => {
  test.slow();
  await reachOrderCompleted(page, 1);
  await tiles(page).getByRole('button', { name: 'Transfer tickets' }).click();
  await page.getByRole('button', { name: new RegExp(`^${FREE_EVENT} - `) }).click();
  const row = page.getByTestId('transfer-row').first();
  await row.getByRole('button', { name: /One more ticket/ }).click();
  await row.getByLabel('Full name').fill('Grace Hopper');
  await row.getByLabel('Email').fill(`friend-${Date.now().toString(36)}@example.com`);
  await page.getByRole('button', { name: 'Send tickets' }).click();
  await expect(page.getByText('Your tickets have been transferred')).toBeVisible();
  await page.getByRole('button', { name: 'Back to your order' }).click();
  await expect(tiles(page).getByRole('button', { name: 'How did we do?' })).toBeVisible();
  await expect(tiles(page).getByRole('button', { name: /Transfer tickets/ })).toHaveCount(0);
});

/** Reads the checkout through `change` from now on (the page itself without its embedded copy). */
async function changeCheckout(page: Page, change: (checkout: Checkout) => Checkout) {
  await withoutPageData(page);
  await page.route(`**${GET_CHECKOUT}`, async (route: Route) => {
    const response = await route.fetch();
    const checkout = (await response.json()) as Checkout;
    await route.fulfill({ response, json: change(checkout) });
  });
}

test('without a reward for every event: Share with friends & family and what was bought; a map per event; no livestream; transfer disabled when every ticket is seated', async ({
  page,
  context,
  baseURL,
}) => {
  test.slow();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await reachOrderCompleted(page, 2);
  await changeCheckout(page, (c) => {
    const openDay = { ...c.events[0]!, has_livestream: false, access_online: null };
    const second = {
      ...openDay,
      id: openDay.id + 1000,
      title: 'Harbour Lights Evening',
      reward_referrers: null,
      venue: {
        full_address: 'Harbourside Amphitheatre, Canons Way, Bristol BS1 5UH',
        map_address: 'Canons Way, Bristol BS1 5UH',
        map_checkin: '2026-08-01',
      },
      shareable_link: `/event/${openDay.id + 1000}/`,
    };
    const seat = { section: 'Stalls', row: 'B', number: '7' };
    const line = c.tickets[0]!;
    return {
      ...c,
      events: [openDay, second],
      tickets: [
        { ...line, seats: [seat, { ...seat, number: '8' }] },
        { ...line, ticket_id: line.ticket_id + 1000, event_id: second.id, qty: 3, seats: [seat, seat, seat] },
      ],
    };
  });
  await page.reload();
  await expectStep(page, 'order_completed');
  await expect(tiles(page).getByRole('listitem')).toHaveText([
    /Go to ticket wallet/,
    /How did we do\?/,
    /Transfer tickets/,
    /Find a place to stay/,
    /Share with friends & family/,
  ]);
  await expect(tiles(page).getByRole('button', { name: /Transfer tickets/ })).toBeDisabled();
  await expect(tiles(page).getByRole('button', { name: /Transfer tickets/ })).toContainText(
    'Seated tickets cannot be transferred',
  );

  await tiles(page).getByRole('button', { name: 'Share with friends & family' }).click();
  const share = page.getByRole('dialog', { name: 'Share with friends & family' });
  const openDayLink = new URL(`/event/`, baseURL).href;
  await expect(share.getByLabel('Message to share')).toHaveValue(
    new RegExp(`^I bought tickets with Holdfast for ${FREE_EVENT} \\(${escape(openDayLink)}\\d+/\\)$`),
  );
  await share.getByRole('button', { name: 'Close' }).click();

  await tiles(page).getByRole('button', { name: 'Find a place to stay' }).click();
  const nearOpenDay = page.getByRole('button', { name: `Find a place to stay near the ${FREE_EVENT} event` });
  const nearHarbour = page.getByRole('button', { name: 'Find a place to stay near the Harbour Lights Evening event' });
  await expect(nearOpenDay).toHaveAttribute('aria-current', 'true');
  const frameSrc = async () =>
    new URL((await page.locator('iframe.stay-map__frame').getAttribute('src'))!).searchParams;
  expect((await frameSrc()).get('adults')).toBe('2');
  await nearHarbour.click();
  await expect(nearHarbour).toHaveAttribute('aria-current', 'true');
  await expect
    .poll(async () => Object.fromEntries(await frameSrc()))
    .toMatchObject({ address: 'Canons Way, Bristol BS1 5UH', checkin: '2026-08-01', adults: '3' });
  await page.getByRole('button', { name: 'Back to your order' }).click();
  await expect(tiles(page)).toBeVisible();
});

test('a referrer link that cannot be read hides the share tile, silently', async ({ page }) => {
  test.slow();
  await failCall(page, REFERRER);
  await reachOrderCompleted(page, 1);
  await expect(tiles(page).getByRole('button', { name: 'How did we do?' })).toBeVisible();
  await expect(tiles(page).getByRole('button', { name: /^Share/ })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('organiser messages after the sale, each with its event, date and time, then Continue to order completed', async ({
  page,
}) => {
  test.slow();
  const message = {
    organiser_name: 'Ashcombe Estate',
    event_title: FREE_EVENT,
    date: 'Saturday 27 June 2026',
    time: '10:00am',
    message: 'Parking is in the walled field by the main gate.\nDogs on leads are welcome.',
  };
  // The organiser's message comes with the checkout from the start of the order.
  await changeCheckout(page, (c) => (c.payment_complete ? { ...c, after_sale_messages: [message] } : c));
  await stubMapProvider(page);
  await freeOrderOnDelivery(page, 1);
  await throughDelivery(page);
  await expectStep(page, 'after_sale_messages');
  const card = page.getByRole('listitem').filter({ hasText: 'Ashcombe Estate' });
  await expect(card.getByRole('heading', { name: 'Ashcombe Estate' })).toBeVisible();
  await expect(card).toContainText(FREE_EVENT);
  await expect(card).toContainText('Saturday 27 June 2026 at 10:00am');
  await expect(card).toContainText('Parking is in the walled field by the main gate.');
  await expectNoAxeViolations(page, 'after sale messages');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'order_completed');
});

test('a buyer of the Improv Jam pays by card, reads its organiser’s message, then reaches order completed with the livestream', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const buyer = newBuyer();
  await page.clock.install();
  await stubMapProvider(page);
  await addFromEventPage(page, 'The Lantern: Improv Jam', { tickets: { 'Standard seat': 1 } });
  await reserveButton(page).click();
  await advanceTo(page, 'ticket_questions_before', { buyer });
  const questions = page.locator('[data-step="ticket_questions_before"] form');
  await questions
    .getByLabel(/Your suggestion for the cast/)
    .first()
    .fill('A lighthouse keeper');
  await questions.getByRole('button', { name: 'Continue' }).click();

  await expectStep(page, 'payment');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Address line 1').fill('4 Mill Lane');
  await page.getByLabel('Town or city').fill('Manchester');
  await page.getByLabel('Postcode or zip code').fill('M4 1LS');
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/card\//);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay £/ }).click();

  // Delivered, the organiser's message comes before the order's last screen.
  await throughDelivery(page);
  await expectStep(page, 'after_sale_messages');
  const card = page.getByRole('listitem').filter({ hasText: 'The Lantern Comedy Club' });
  await expect(card.getByRole('heading', { name: 'The Lantern Comedy Club' })).toBeVisible();
  await expect(card).toContainText('The Lantern: Improv Jam');
  await expect(card).toContainText(/\w{3}, \d{1,2} \w{3} \d{4} at \d{1,2}:\d\d [ap]m/);
  await expect(card).toContainText('Doors open at 7:30 pm and the show starts at 8.');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'order_completed');
  await expect(page.getByRole('link', { name: /How to watch the livestream/ })).toHaveAttribute(
    'href',
    'https://live.lanterncomedy.example/improv-jam',
  );
  // Once read, a reload stays on the completed order.
  await page.reload();
  await expectStep(page, 'order_completed');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });
  test('every tile, link and button is a comfortable tap target', async ({ page }) => {
    test.slow();
    await reachOrderCompleted(page, 1);
    expect(await findSmallTargets(page)).toEqual([]);
    await photograph(page, 'docs/screenshots/phone-order-completed.png', { fullPage: true });
    await tiles(page).getByRole('button', { name: 'How did we do?' }).click();
    expect(await findSmallTargets(page)).toEqual([]);
    await photograph(page, 'docs/screenshots/phone-feedback.png');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await tiles(page).getByRole('button', { name: 'Find a place to stay' }).click();
    expect(await findSmallTargets(page)).toEqual([]);
    await photograph(page, 'docs/screenshots/phone-find-a-place.png', { fullPage: true });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
