/**
 * Analytics with consent (spec 001 §4, §7), against demo mode's stand-in for Google's tag and Meta's
 * pixel (/dev/analytics/): the folk club's basket asks about analytics cookies, and nothing of the
 * tag's or the pixel's loads until the buyer accepts; then each checkout state is a page view, and
 * the completed order sends the purchase, the Ads conversion (the sale) and Meta's Purchase.
 */
import type { Page, Request } from '@playwright/test';
import {
  advanceTo,
  addFromEventPage,
  expect,
  expectStep,
  reserveButton,
  signInAsNewBuyer,
  test,
  throughDelivery,
} from './support.ts';
import { atBank, payByBank } from './bank.ts';

/** What the page asked of the tag, the pixel or their hosts, in order. */
function recordAnalytics(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (/\/dev\/analytics\/|googletagmanager|google-analytics|facebook/.test(request.url())) seen.push(request);
  });
  return seen;
}

const hits = (seen: Request[], path: string) =>
  seen
    .map((r) => new URL(r.url()))
    .filter((u) => u.pathname === path)
    .map((u) => Object.fromEntries(u.searchParams));

test('the analytics question comes with the app’s first screen: the basket never moves once it can be pressed', async ({
  page,
}) => {
  await addFromEventPage(page, 'Folk at the Ropewalk', { tickets: { 'Session seat': 1 } });
  // Where Reserve Basket is at each frame from the moment the app's basket can be pressed.
  await page.addInitScript(() => {
    const tops: number[] = [];
    (window as unknown as { reserveTops: number[] }).reserveTops = tops;
    const frame = () => {
      const button = document.querySelector('[data-step="basket"]:not([inert]) .reserve-button');
      if (button) tops.push(Math.round(button.getBoundingClientRect().top + window.scrollY));
      if (tops.length < 60) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  await page.reload();
  await expect(page.getByRole('region', { name: 'Analytics cookies' })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { reserveTops: number[] }).reserveTops.length))
    .toBe(60);
  const tops = await page.evaluate(() => (window as unknown as { reserveTops: number[] }).reserveTops);
  expect(new Set(tops).size, `Reserve Basket moved: ${tops.join(', ')}`).toBe(1);
});

test('nothing of the tag or the pixel loads before consent; then page views and the purchase @anyWidth', async ({
  page,
}) => {
  await page.clock.install();
  const seen = recordAnalytics(page);
  await signInAsNewBuyer(page);
  await addFromEventPage(page, 'Folk at the Ropewalk', { tickets: { 'Session seat': 1 } });
  const banner = page.getByRole('region', { name: 'Analytics cookies' });
  await expect(banner).toBeVisible();
  await page.clock.runFor(2_000);
  expect(seen.map((r) => r.url())).toEqual([]);
  expect(
    await page.evaluate(() => ({
      gtag: typeof (window as { gtag?: unknown }).gtag,
      fbq: typeof (window as { fbq?: unknown }).fbq,
    })),
  ).toEqual({ gtag: 'undefined', fbq: 'undefined' });

  await banner.getByRole('button', { name: 'Accept analytics cookies' }).click();
  await expect(banner).toHaveCount(0);
  // The state the buyer is on counts from now: the basket.
  await expect
    .poll(() =>
      hits(seen, '/dev/analytics/collect')
        .filter((h) => h.en === 'page_view')
        .map((h) => `${h.tid} ${h.dt}`),
    )
    .toEqual(['G-HFOLK00001 basket', 'UA-100000-1 basket']);
  await expect
    .poll(() => hits(seen, '/dev/analytics/tr').map((h) => `${h.id} ${h.ev}`))
    .toEqual(['100000000000001 PageView']);

  await reserveButton(page).click();
  await advanceTo(page, 'payment');
  await expect
    .poll(() =>
      hits(seen, '/dev/analytics/collect')
        .filter((h) => h.en === 'page_view' && h.tid === 'G-HFOLK00001')
        .map((h) => h.dt),
    )
    .toEqual(expect.arrayContaining(['basket', 'login', 'marketing_preferences', 'payment']));
  expect(hits(seen, '/dev/analytics/collect').find((h) => h.dt === 'payment')?.dl).toMatch(/\/checkout\/payment\/$/);

  await payByBank(page);
  await atBank(page, 'Approve payment');
  await expect(page.getByText('Payment received')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'deliver_tickets');
  await throughDelivery(page);
  await expectStep(page, 'order_completed');

  const checkout = (await (await page.request.get('/ajax/checkout/checkout/get/')).json()) as {
    sale_reference: string;
  };
  await expect
    .poll(() =>
      hits(seen, '/dev/analytics/collect')
        .filter((h) => h.en === 'purchase')
        .map((h) => [h.tid, h['ep.transaction_id'], h['epn.value'], h['ep.currency']]),
    )
    .toEqual([
      ['G-HFOLK00001', checkout.sale_reference, '15', 'GBP'],
      ['UA-100000-1', checkout.sale_reference, '15', 'GBP'],
    ]);
  expect(
    hits(seen, '/dev/analytics/collect')
      .filter((h) => h.en === 'conversion')
      .map((h) => [h.tid, h['ep.transaction_id']]),
  ).toEqual([['AW-100000001/folk-sale', checkout.sale_reference]]);
  await expect
    .poll(() =>
      hits(seen, '/dev/analytics/tr')
        .filter((h) => h.ev === 'Purchase')
        .map((h) => [h.id, h['cd[value]'], h['cd[currency]']]),
    )
    .toEqual([['100000000000001', '15', 'GBP']]);
  expect(
    hits(seen, '/dev/analytics/collect')
      .filter((h) => h.en === 'page_view' && h.tid === 'G-HFOLK00001')
      .map((h) => h.dt),
  ).toContain('order_completed');
});

test('a buyer who says no thanks is not tracked @anyWidth', async ({ page }) => {
  const seen = recordAnalytics(page);
  await addFromEventPage(page, 'Folk at the Ropewalk', { tickets: { 'Session seat': 1 } });
  await page.getByRole('region', { name: 'Analytics cookies' }).getByRole('button', { name: 'No thanks' }).click();
  await expect(page.getByRole('region', { name: 'Analytics cookies' })).toHaveCount(0);
  await reserveButton(page).click();
  await expect(page.locator('[data-step="basket"]')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('[data-step]').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Analytics cookies' })).toHaveCount(0);
  expect(seen.map((r) => r.url())).toEqual([]);
});

test('a basket whose organisers have no analytics asks nothing @anyWidth', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
  await expect(page.getByRole('region', { name: 'Analytics cookies' })).toHaveCount(0);
});
