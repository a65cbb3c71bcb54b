/**
 * GET checkout is kept by the browser and asked for again each time with its ETag: unchanged, the
 * server answers 304 and the browser hands the app its copy; after a change the app gets the new
 * basket at once.
 */
import { expect, test } from './support.ts';
import { addFromEventPage, basketStep } from './support.ts';

const CHECKOUT = '/ajax/checkout/checkout/get/';

/** Reads GET checkout as the app's client does (fetch, credentials, JSON), and how it came. */
async function readCheckout(page: import('@playwright/test').Page) {
  return page.evaluate(async (url) => {
    performance.clearResourceTimings();
    const res = await fetch(url, { credentials: 'include', headers: { accept: 'application/json' } });
    const body = (await res.json()) as { tickets: { qty: number }[] };
    await new Promise((r) => setTimeout(r, 50));
    const timing = performance.getEntriesByType('resource').find((e) => e.name.endsWith(url)) as PerformanceResourceTiming | undefined;
    return { status: res.status, qty: body.tickets.map((t) => t.qty), transferSize: timing?.transferSize ?? -1, bodySize: timing?.encodedBodySize ?? -1 };
  }, CHECKOUT);
}

test('the basket read again is revalidated with its ETag, and a change is read at once', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  const quantity = basketStep(page).getByRole('spinbutton', { name: /General admission/ });
  await expect(quantity).toHaveValue('2');

  const first = await readCheckout(page);
  expect(first).toMatchObject({ status: 200, qty: [2] });
  // Asked again: only headers cross the network (304), the body is the browser's copy.
  const again = await readCheckout(page);
  expect(again).toMatchObject({ status: 200, qty: [2] });
  expect(again.bodySize).toBeGreaterThan(1000);
  expect(again.transferSize).toBeLessThan(again.bodySize);

  await quantity.fill('3');
  await quantity.blur();
  await expect(quantity).toHaveValue('3');
  const changed = await readCheckout(page);
  expect(changed).toMatchObject({ status: 200, qty: [3] });
});
