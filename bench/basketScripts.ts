/**
 * The JavaScript a buyer downloads to a usable filled basket: Chromium at 360 px opens /checkout/
 * with a basket of two ticket lines, and every script response is counted, with its body's gzip
 * (level 9) size, when it was requested before the basket was in use (drawn by the app, Reserve
 * Basket visible; the moment is taken in the page as the DOM changes, so what the app fetches once
 * idle after that is not counted however quickly it starts), then again
 * after the page has been left idle for IDLE_MS (what the basket screen downloads before the buyer
 * reserves). Beside it, the floor: the stack's five runtime packages alone (bench/bundle.ts).
 *
 *   npx tsx bench/basketScripts.ts
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Response } from 'playwright';
import { floorKb } from './bundle.ts';
import { CHROMIUM_ARGS, chromiumPath, filledBasketCookies, startLocalServer } from './lighthouse.ts';

const IDLE_MS = Number(process.env.IDLE_MS ?? 4000);

interface Script {
  url: string;
  kb: number;
}

export async function benchBasketScripts(): Promise<{
  usable: Script[];
  idle: Script[];
  calls: { beforeUsable: string[]; idle: string[] };
  floorKb: number;
}> {
  const server = await startLocalServer();
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const cookies = await filledBasketCookies(server.base, `/event/${server.eventId}/`);
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await context.addCookies(cookies.map((c) => ({ ...c, url: server.base })));
    const page = await context.newPage();
    const scripts: (Script & { requestedAt: number })[] = [];
    const pending: Promise<void>[] = [];
    // The page's own clock when the basket became usable, as the DOM changed.
    // As a string: a function would be compiled by tsx with helpers the page does not have, and
    // fail there, leaving no moment at all.
    await page.addInitScript({
      content: `(() => {
        const usableNow = () => {
          const step = document.querySelector('[data-step="basket"]');
          const reserve = [...document.querySelectorAll('button')].find((b) => /Reserve Basket/.test(b.textContent || ''));
          return step !== null && !step.hasAttribute('inert') && reserve !== undefined;
        };
        const watch = new MutationObserver(() => {
          if (!usableNow()) return;
          window.__usableAt = performance.now();
          watch.disconnect();
        });
        watch.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['inert'] });
      })()`,
    });
    const calls: string[] = [];
    page.on('request', (request) => {
      if (['fetch', 'xhr'].includes(request.resourceType()))
        calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    page.on('response', (response: Response) => {
      if (response.request().resourceType() !== 'script') return;
      const url = response.url();
      pending.push(
        response.body().then(
          async (body) => {
            // When the page asked for it, on the page's clock.
            const requestedAt = await page
              .evaluate((u) => performance.getEntriesByName(u)[0]?.startTime ?? 0, url)
              .catch(() => 0);
            scripts.push({ url: new URL(url).pathname, kb: gzipSync(body, { level: 9 }).length / 1024, requestedAt });
          },
          () => undefined,
        ),
      );
    });
    await page.goto(`${server.base}/checkout/`);
    const basket = page.locator('[data-step="basket"]');
    await basket.waitFor({ state: 'visible' });
    await page.waitForFunction(() => {
      const step = document.querySelector('[data-step="basket"]');
      const reserve = [...document.querySelectorAll('button')].find((b) => /Reserve Basket/.test(b.textContent ?? ''));
      return step !== null && !step.hasAttribute('inert') && reserve !== undefined;
    });
    await Promise.all(pending);
    const usableAt = await page.evaluate(() => (window as unknown as { __usableAt?: number }).__usableAt);
    if (usableAt === undefined) throw new Error('The page never noted the moment the basket became usable');
    const callsBeforeUsable = [...calls];
    await page.waitForTimeout(IDLE_MS);
    await Promise.all(pending);
    const byRequest = [...scripts].sort((a, b) => a.requestedAt - b.requestedAt);
    const usable = byRequest.filter((s) => s.requestedAt <= usableAt).map(({ url, kb }) => ({ url, kb }));
    const idle = [...usable, ...byRequest.filter((s) => s.requestedAt > usableAt).map(({ url, kb }) => ({ url, kb }))];
    return { usable, idle, calls: { beforeUsable: callsBeforeUsable, idle: [...calls] }, floorKb: floorKb() };
  } finally {
    await browser.close();
    await server.stop();
  }
}

function total(scripts: Script[]): number {
  return scripts.reduce((sum, s) => sum + s.kb, 0);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { usable, idle, calls, floorKb: floor } = await benchBasketScripts();
  console.log('\n## JavaScript to a usable filled basket (Chromium, 360 px, gzip level 9)');
  console.log(`floor (React, react-dom, XState, @xstate/react, React Query alone): ${floor.toFixed(1)} KB`);
  console.log(
    `usable: ${total(usable).toFixed(1)} KB in ${usable.length} scripts; ratio ÷ floor ${(total(usable) / floor).toFixed(3)} (goal ≤ 1.25, ≤ 8 scripts)`,
  );
  for (const s of usable) console.log(`  ${s.kb.toFixed(1).padStart(6)} KB  ${s.url}`);
  const later = idle.slice(usable.length);
  console.log(
    `after ${IDLE_MS} ms idle on the basket: ${total(idle).toFixed(1)} KB in ${idle.length} scripts (${later.length} more)`,
  );
  for (const s of later) console.log(`  ${s.kb.toFixed(1).padStart(6)} KB  ${s.url}`);
  console.log(
    `calls before usable: ${calls.beforeUsable.join(', ') || 'none'}; by the end of the idle time: ${calls.idle.join(', ') || 'none'}`,
  );
  process.exit(0);
}
