import { expect, type Browser, type Page } from '@playwright/test';
import { addFromEventPage, basketLine, basketStep, expectStep, originOf, reserveButton, test } from './support.ts';

/** The same visitor (the page's cookies) with scripts switched off: what the page paints on its own. */
async function withoutScripts(browser: Browser, baseURL: string | undefined, from?: Page) {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  if (from) await context.addCookies(await from.context().cookies());
  const page = await context.newPage();
  await page.goto('/checkout/');
  return { page, close: () => context.close() };
}

/** Each matching file takes a quarter of a second to come, as on a slow network (routing also bypasses the cache). */
async function slowly(page: Page, files: RegExp): Promise<void> {
  await page.route(files, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 250));
    await route.continue();
  });
}

// The painted basket is inert until the app draws it again (nothing on it works before then), so
// it is read here by its text, as a sighted buyer sees it.
test('with no basket, the page paints the empty basket before any script runs', async ({ browser, baseURL }) => {
  const { page, close } = await withoutScripts(browser, baseURL);
  const painted = basketStep(page);
  await expect(painted).toHaveAttribute('inert', '');
  await expect(painted.locator('h1')).toHaveText('Basket');
  await expect(painted).toContainText('Looking for something to put in your basket?');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeAttached();
  await close();
});

test('a filled basket paints with the page before any script runs: its lines, total and Reserve Basket', async ({
  page,
  browser,
  baseURL,
}) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  const { page: before, close } = await withoutScripts(browser, baseURL, page);
  const painted = basketStep(before);
  await expect(painted).toHaveAttribute('inert', '');
  await expect(painted.locator('.line__name')).toHaveText(['General admission']);
  await expect(painted.locator('.stepper__input')).toHaveValue('2');
  await expect(painted.locator('.reserve-bar__total')).toContainText('£48.00');
  await expect(painted.locator('.reserve-button')).toContainText('Reserve Basket');
  await close();
});

test('a held sale paints Determining checkout progress until the app knows its step', async ({
  page,
  browser,
  baseURL,
}) => {
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } });
  await reserveButton(page).click();
  await expectStep(page, 'login');
  const painted = await withoutScripts(browser, baseURL, page);
  await expect(painted.page.getByRole('heading', { level: 1, name: 'Determining checkout progress' })).toBeVisible();
  await painted.close();
});

test('the app takes over the painted basket without a Determining flash, and it works', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  // Every heading the page ever shows, from the first byte on.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { headingsSeen: string[] }).headingsSeen = seen;
    new MutationObserver(() => {
      for (const h of document.querySelectorAll('h1'))
        if (!seen.includes(h.textContent ?? '')) seen.push(h.textContent ?? '');
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.reload();
  // The app's own basket replaces the painted one, and works.
  await expect(basketStep(page)).not.toHaveAttribute('inert', '');
  const stepper = basketStep(page).getByRole('spinbutton', { name: /General admission/ });
  await expect(stepper).toHaveValue('2');
  await basketLine(page, 'General admission')
    .getByRole('button', { name: /One more/ })
    .click();
  await expect(stepper).toHaveValue('3');
  await expect(page.locator('.reserve-bar__total')).toContainText('£72.00');
  expect(await page.evaluate(() => (window as unknown as { headingsSeen: string[] }).headingsSeen)).toEqual(['Basket']);
});

test('a filled basket shows with the page, without asking the server for the checkout again', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  const reads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/ajax/checkout/checkout/get/') || request.url().includes('/ajax/user/user/get_user/'))
      reads.push(request.url());
  });
  await page.reload();
  await expect(basketStep(page).getByRole('spinbutton', { name: /General admission/ })).toHaveValue('2');
  expect(reads).toEqual([]);
});

test('no script is fetched until the page is parsed; then the entry and the chunks that start the app are fetched together, each once', async ({
  page,
  browser,
  baseURL,
}) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  const painted = await withoutScripts(browser, baseURL, page);
  await expect(painted.page.locator('link[rel="modulepreload"], script[src], link[rel="preload"]')).toHaveCount(0);
  await painted.close();
  // A slow network: each script takes a quarter of a second to come, so one found only once the
  // entry had arrived would be asked for well after it.
  await slowly(page, /\/assets\/[^/]+\.js$/);
  await page.reload();
  await expect(basketStep(page)).not.toHaveAttribute('inert', '');
  const { parsed, scripts } = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const named = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) =>
      new URL(entry.name).pathname.endsWith('.js'),
    );
    return {
      parsed: nav.domContentLoadedEventEnd,
      scripts: named.map((entry) => ({
        path: new URL(entry.name).pathname,
        start: entry.startTime,
        end: entry.responseEnd,
      })),
    };
  });
  const preload = (await page.locator('meta[name="app-entry"]').getAttribute('data-preload'))!.split(' ');
  const entry = (await page.locator('meta[name="app-entry"]').getAttribute('content'))!;
  for (const script of scripts) expect(script.start, script.path).toBeGreaterThanOrEqual(parsed);
  const paths = scripts.map((script) => script.path);
  expect(paths).toEqual(expect.arrayContaining([entry, ...preload]));
  expect(new Set(paths).size).toBe(paths.length);
  // Preloaded beside the entry: each asked for before the entry had arrived, not found one import at a time after it.
  const entryArrived = scripts.find((script) => script.path === entry)!.end;
  for (const path of preload)
    expect(scripts.find((script) => script.path === path)!.start, path).toBeLessThan(entryArrived);
});

test('no script is asked for until the browser has shown the page’s first content', async ({ page }) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  for (let load = 0; load < 3; load++) {
    await page.reload();
    await expect(basketStep(page)).not.toHaveAttribute('inert', '');
    const { painted, scripts } = await page.evaluate(() => ({
      painted: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
      scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime })),
    }));
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts)
      expect(script.start, `${script.path}, load ${load + 1}`).toBeGreaterThanOrEqual(painted);
  }
});

test('the page’s stylesheet comes inside it and is never fetched, not even when the app loads its steps', async ({
  page,
}) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  await expect(basketStep(page)).not.toHaveAttribute('inert', '');
  const stylesheet = await page.locator('link[rel="stylesheet"][disabled]').first().getAttribute('href');
  expect(stylesheet).toMatch(/^\/assets\/.+\.css$/);
  // Reserving loads the reservation's and the steps' chunks, which name the page's stylesheet among what they need.
  await reserveButton(page).click();
  await expectStep(page, 'donation');
  const fetched = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
      (entry) => new URL(entry.name).pathname,
    ),
  );
  expect(fetched).not.toContain(stylesheet);
  expect(await page.locator(`link[rel="stylesheet"][href="${stylesheet}"]:not([disabled])`).count()).toBe(0);
});

test('the wire contract’s files download together, so a change made as the basket comes alive is sent without waiting for them one by one', async ({
  page,
}) => {
  // A slow network for the contract's files: fetched one after another, the last would be asked for
  // seconds after the first had arrived.
  await slowly(page, /\/assets\/contract-[^/]+\.js$/);
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
  await expect(basketStep(page)).not.toHaveAttribute('inert', '');
  const sent = page.waitForResponse((r) => r.url().includes('/update_refund_protection/') && r.ok());
  await basketStep(page).getByRole('radio', { name: /^yes/i }).click();
  await sent;
  const contract = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => /^\/assets\/contract-[^/]+\.js$/.test(new URL(entry.name).pathname))
      .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime, end: entry.responseEnd })),
  );
  expect(contract.length, 'the contract is in several files').toBeGreaterThan(5);
  // Each asked for before the first of them had arrived: one round trip for the whole contract.
  const firstArrived = Math.min(...contract.map((file) => file.end));
  for (const file of contract) expect(file.start, file.path).toBeLessThan(firstArrived);
  await page.reload();
  await expect(basketStep(page).getByRole('radio', { name: /^yes/i })).toBeChecked();
});

test('the browser’s formatting is set up in a worker as the page starts, which the page’s policy allows and which then ends', async ({
  page,
}) => {
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 2 } });
  const ended = new Promise<string>((resolve) =>
    page.once('worker', (worker) => worker.once('close', () => resolve(worker.url()))),
  );
  await page.reload();
  // Made by the page itself (the test's fixture fails it on any policy violation).
  const url = await ended;
  expect(url).toMatch(/^blob:/);
  expect(originOf(url)).toBe(new URL(page.url()).origin);
  await expect(basketStep(page).locator('.reserve-bar__total')).toContainText('£48.00');
});
