/**
 * Lighthouse 12 (it runs on Node 20; 13 needs Node 22) on the pages a buyer meets first: all events,
 * an event page and the filled basket at /checkout/. Mobile emulation with Lighthouse's default
 * simulated throttling (a mid-range phone on slow 4G). Runs each page LIGHTHOUSE_RUNS times (5) and
 * prints the median run's performance, accessibility and best-practices scores with LCP, TBT and CLS
 * beside the goals, what failed, and every run's score; gates nothing.
 *
 * By default it builds the app into a temporary folder and serves it from a seeded temporary
 * PGlite; LIGHTHOUSE_URL=http://host:port measures a running server instead (its catalogue must
 * have the demo events). CHROME_PATH picks the browser (default: Debian's /usr/bin/chromium).
 * LIGHTHOUSE_PAGES=filled measures only the pages whose names contain a word of that list;
 * LIGHTHOUSE_SAVE=dir writes the median run's report of each page there as JSON (and its trace with
 * LIGHTHOUSE_TRACE=1).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Result, RunnerResult } from 'lighthouse';

const GOALS = { lcp: 1500, tbt: 100, cls: 0.02, accessibility: 100 };
/** Runs per page (LIGHTHOUSE_RUNS): one run varies with the machine's load, so the median run is reported, as Lighthouse advises. */
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 5));

/** Chromium's switches for a headless run on this kind of machine (no sandbox, no GPU, no background fetches). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

/** CHROME_PATH, else Debian's Chromium where installed. */
export function chromiumPath(): string | undefined {
  return process.env.CHROME_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
}

/** The run with the median performance score (a failed run counts as lowest). */
function medianRun(results: RunnerResult[]): RunnerResult {
  const ranked = [...results].sort(
    (a, b) => (a.lhr.categories.performance?.score ?? -1) - (b.lhr.categories.performance?.score ?? -1),
  );
  return ranked[Math.floor((ranked.length - 1) / 2)]!;
}

interface Target {
  name: string;
  path: string;
  cookie?: string;
}

/** Builds the app and starts the server on a seeded temporary PGlite; answers its address, the jazz event's id and a stop function. */
export async function startLocalServer(): Promise<{ base: string; eventId: number; stop: () => Promise<void> }> {
  const { build } = await import('vite');
  const { buildApp } = await import('../server/app.ts');
  const { testConfig } = await import('../server/config.ts');
  const { openTestDatabase } = await import('../server/db/testing.ts');
  const { seed } = await import('../server/seed.ts');

  const staticDir = mkdtempSync(path.join(tmpdir(), 'holdfast-lighthouse-'));
  await build({ logLevel: 'warn', build: { outDir: staticDir, emptyOutDir: true } });
  const database = await openTestDatabase('pglite');
  const demo = await seed(database.db);
  const app = await buildApp({
    db: database.db,
    config: testConfig({ captcha: 'never', checkoutTimeSeconds: 600, staticDir }),
    logger: false,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    base,
    eventId: demo.events.jazz,
    async stop() {
      await app.close();
      await database.close();
      rmSync(staticDir, { recursive: true, force: true });
    },
  };
}

/** The first event page the catalogue links to, for a server we did not seed. */
async function firstEventPath(base: string): Promise<string> {
  const list = await (await fetch(`${base}/all-events/`)).text();
  const href = list.match(/href="(\/event\/\d+\/)"/)?.[1];
  if (!href) throw new Error(`${base}/all-events/ links to no event page`);
  return href;
}

/** A basket like a buyer's: tickets and a gift voucher from one event page, through the spec's add call; its cookies (session and sale). */
export async function filledBasketCookies(base: string, eventPath: string): Promise<{ name: string; value: string }[]> {
  const page = await (await fetch(`${base}${eventPath}`)).text();
  const fields = new URLSearchParams({ parent_event_id: eventPath.split('/')[2]! });
  const tickets = [...page.matchAll(/name="(ticket\[[^\]]+\])\[ticket\]" value="(\d+)"/g)].slice(0, 2);
  for (const [, key, id] of tickets) {
    fields.set(`${key}[ticket]`, id!);
    fields.set(`${key}[qty]`, '2');
  }
  const res = await fetch(`${base}/do/checkout/add/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', origin: base },
    body: fields.toString(),
  });
  if (!res.ok) throw new Error(`Filling the basket failed: ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => {
    const pair = c.split(';')[0]!;
    return { name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1) };
  });
  if (!cookies.some((c) => c.name === 'hf_sale')) throw new Error('The add call set no sale cookie');
  return cookies;
}

const ms = (n: number | undefined) =>
  n === undefined ? '   n/a' : `${Math.round(n).toLocaleString('en-GB').padStart(5)} ms`;
const score = (n: number | null | undefined) =>
  n === null || n === undefined ? 'n/a' : String(Math.round(n * 100)).padStart(3);
const mark = (ok: boolean) => (ok ? '✓' : '✗');

function report(target: Target, lhr: Result): void {
  if (lhr.runtimeError)
    console.log(`  ${target.name.padEnd(16)} Lighthouse failed: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const metric = (id: string) => lhr.audits[id]?.numericValue;
  const lcp = metric('largest-contentful-paint');
  const tbt = metric('total-blocking-time');
  const cls = metric('cumulative-layout-shift');
  const a11y = lhr.categories.accessibility?.score;
  console.log(
    `  ${target.name.padEnd(16)} performance ${score(lhr.categories.performance?.score)}  accessibility ${score(a11y)} ${mark((a11y ?? 0) * 100 >= GOALS.accessibility)}  best-practices ${score(lhr.categories['best-practices']?.score)}`,
  );
  console.log(
    `  ${''.padEnd(16)} LCP ${ms(lcp)} ${mark((lcp ?? Infinity) <= GOALS.lcp)}  TBT ${ms(tbt)} ${mark((tbt ?? Infinity) <= GOALS.tbt)}  CLS ${(cls ?? NaN).toFixed(3)} ${mark((cls ?? Infinity) <= GOALS.cls)}  FCP ${ms(metric('first-contentful-paint'))}`,
  );
  if ((tbt ?? 0) > GOALS.tbt) {
    const work =
      (
        lhr.audits['mainthread-work-breakdown']?.details as
          { items?: { groupLabel: string; duration: number }[] } | undefined
      )?.items ?? [];
    console.log(
      `  ${''.padEnd(16)} main thread: ${work
        .slice(0, 4)
        .map((w) => `${w.groupLabel} ${Math.round(w.duration)} ms`)
        .join(', ')}`,
    );
    const tasks =
      (lhr.audits['long-tasks']?.details as { items?: { url: string; duration: number }[] } | undefined)?.items ?? [];
    if (tasks.length)
      console.log(
        `  ${''.padEnd(16)} long tasks: ${tasks
          .slice(0, 4)
          .map((t) => `${Math.round(t.duration)} ms ${t.url.replace(/^https?:\/\/[^/]+/, '') || '(page)'}`)
          .join(', ')}`,
      );
  }
  if ((lcp ?? 0) > GOALS.lcp) {
    const element = (
      lhr.audits['largest-contentful-paint-element']?.details as
        { items?: { items?: { node?: { selector?: string; snippet?: string } }[] }[] } | undefined
    )?.items?.[0]?.items?.[0]?.node;
    if (element)
      console.log(`  ${''.padEnd(16)} LCP element: ${element.selector ?? ''} ${(element.snippet ?? '').slice(0, 80)}`);
  }
  if ((cls ?? 0) > GOALS.cls) {
    const shifts =
      (
        lhr.audits['layout-shifts']?.details as
          { items?: { node?: { selector?: string; snippet?: string }; score: number }[] } | undefined
      )?.items ?? [];
    console.log(
      `  ${''.padEnd(16)} layout shifts: ${shifts
        .slice(0, 4)
        .map((x) => `${x.score.toFixed(3)} ${x.node?.selector ?? x.node?.snippet ?? '?'}`)
        .join(', ')}`,
    );
  }
  for (const id of ['accessibility', 'best-practices'] as const) {
    const failed = (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => lhr.audits[ref.id]!.title);
    if (failed.length) console.log(`  ${''.padEnd(16)} ${id} to fix: ${failed.join('; ')}`);
  }
}

export async function benchLighthouse(): Promise<void> {
  const chromePath = chromiumPath();
  if (!chromePath) {
    console.log('\nLighthouse: no Chromium found (set CHROME_PATH); skipped');
    return;
  }
  const external = process.env.LIGHTHOUSE_URL?.replace(/\/$/, '');
  const local = external ? null : await startLocalServer();
  const base = external ?? local!.base;
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const eventPath = local ? `/event/${local.eventId}/` : await firstEventPath(base);
    const targets: Target[] = [
      { name: 'all events', path: '/all-events/' },
      { name: 'event page', path: eventPath },
      {
        name: 'filled basket',
        path: '/checkout/',
        cookie: (await filledBasketCookies(base, eventPath)).map((c) => `${c.name}=${c.value}`).join('; '),
      },
    ].filter(
      (t) =>
        !process.env.LIGHTHOUSE_PAGES || process.env.LIGHTHOUSE_PAGES.split(',').some((name) => t.name.includes(name)),
    );
    console.log(
      `\nLighthouse 12 on ${base} (mobile emulation, simulated slow 4G; goals: LCP ≤ ${GOALS.lcp} ms, TBT ≤ ${GOALS.tbt} ms, CLS ≤ ${GOALS.cls}, accessibility ${GOALS.accessibility}; load average ${loadavg()[0]!.toFixed(1)}: TBT grows with a busy machine)`,
    );
    for (const target of targets) {
      const results: RunnerResult[] = [];
      for (let run = 0; run < RUNS; run++) {
        const result = await lighthouse(`${base}${target.path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          ...(target.cookie ? { extraHeaders: { Cookie: target.cookie } } : {}),
        });
        if (!result) throw new Error(`Lighthouse returned nothing for ${target.path}`);
        results.push(result);
      }
      const result = medianRun(results);
      report(target, result.lhr);
      if (results.length > 1) {
        const each = results.map((r) =>
          r.lhr.runtimeError
            ? `failed (${r.lhr.runtimeError.code})`
            : `${score(r.lhr.categories.performance?.score).trim()} (LCP ${Math.round(r.lhr.audits['largest-contentful-paint']?.numericValue ?? NaN)}, TBT ${Math.round(r.lhr.audits['total-blocking-time']?.numericValue ?? NaN)} ms)`,
        );
        console.log(`  ${''.padEnd(16)} ${results.length} runs, the median shown: performance ${each.join(', ')}`);
      }
      if (process.env.LIGHTHOUSE_SAVE) {
        const stem = path.join(process.env.LIGHTHOUSE_SAVE, target.name.replace(/\W+/g, '-'));
        writeFileSync(`${stem}.json`, JSON.stringify(result.lhr));
        if (process.env.LIGHTHOUSE_TRACE)
          writeFileSync(
            `${stem}.trace.json`,
            JSON.stringify((result.artifacts as unknown as { Trace: unknown }).Trace),
          );
      }
    }
  } finally {
    await chrome.kill();
    await local?.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchLighthouse();
  process.exit(0);
}
