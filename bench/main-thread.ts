/**
 * The filled basket's main thread after its first paint, from Chromium's own trace: every task of
 * 10 ms or more with what ran in it, and the blocking time a phone four times slower would see (the
 * sum of 4 × each task − 50 ms, the multiplier Lighthouse's mobile simulation applies). Lighthouse's
 * own figure moves by hundreds of milliseconds from run to run on a busy two-core machine, because
 * its tracing competes with the page; this one traces less, so it shows where the time goes and
 * whether a change moved it. Each run is a new browser context, so nothing is warm from the last.
 * MAIN_THREAD_RUNS runs (5), the median printed with every run; gates nothing.
 */
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath, filledBasketCookies, startLocalServer } from './lighthouse.ts';

const RUNS = Math.max(1, Number(process.env.MAIN_THREAD_RUNS ?? 5));
const SLOWDOWN = 4;
const LONG_MS = 50;
const SHOWN_MS = 10;

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
}

interface Run {
  fcp: number;
  blocking: number;
  tasks: { at: number; ms: number; what: string }[];
}

/** What a task spent its time on: its longest inner events, named by script and function where known. */
function describe(task: TraceEvent, events: TraceEvent[]): string {
  const end = task.ts + task.dur!;
  return events
    .filter(
      (e) =>
        e !== task &&
        e.ts >= task.ts &&
        e.ts < end &&
        (e.dur ?? 0) >= 2000 &&
        !/^(v8\.callFunction|V8\.GC_|ThreadControllerImpl)/.test(e.name),
    )
    .sort((a, b) => b.dur! - a.dur!)
    .slice(0, 4)
    .map((e) => {
      const data = e.args?.data;
      const where = [
        data?.url
          ?.split('/')
          .pop()
          ?.replace(/-[\w-]{8}\.js$/, '.js')
          .slice(0, 40),
        data?.functionName,
      ]
        .filter(Boolean)
        .join(' ');
      return `${e.name}${where ? ` (${where})` : ''} ${Math.round(e.dur! / 1000)}`;
    })
    .join(', ');
}

async function traceOnce(page: Page, url: string): Promise<Run> {
  const browser = page.context().browser()!;
  // A page already open, so the trace holds the whole navigation in the renderer that paints it.
  await page.goto('about:blank');
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'v8.execute',
      'disabled-by-default-devtools.timeline',
      'blink.user_timing',
      'loading',
    ],
  });
  await page.goto(url);
  await page.locator('[data-step="basket"]:not([inert])').waitFor();
  await page.waitForTimeout(2500);
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const fcp = traceEvents.find((e) => e.name === 'firstContentfulPaint');
  const navigation = traceEvents
    .filter((e) => e.name === 'navigationStart' && e.pid === fcp?.pid && e.ts <= fcp.ts)
    .at(-1);
  const main = traceEvents.find(
    (e) => e.name === 'thread_name' && e.pid === fcp?.pid && e.args?.name === 'CrRendererMain',
  );
  if (!fcp || !navigation || !main)
    throw new Error(
      `The trace has no first paint on a page’s main thread (${[fcp ? '' : 'paint', navigation ? '' : 'navigation', main ? '' : 'thread'].join(' ')})`,
    );
  const mine = traceEvents.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const tasks = mine.filter((e) => e.name === 'RunTask' && e.ts >= fcp.ts && (e.dur ?? 0) >= SHOWN_MS * 1000);
  return {
    fcp: (fcp.ts - navigation.ts) / 1000,
    blocking: tasks.reduce((sum, t) => sum + Math.max(0, (t.dur! / 1000) * SLOWDOWN - LONG_MS), 0),
    tasks: tasks.map((t) => ({ at: (t.ts - fcp.ts) / 1000, ms: t.dur! / 1000, what: describe(t, mine) })),
  };
}

export async function benchMainThread(): Promise<void> {
  const executablePath = chromiumPath();
  const local = await startLocalServer();
  const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS });
  try {
    const cookies = await filledBasketCookies(local.base, `/event/${local.eventId}/`);
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        deviceScaleFactor: 1.75,
        isMobile: true,
        hasTouch: true,
      });
      await context.addCookies(cookies.map((c) => ({ ...c, url: local.base })));
      runs.push(await traceOnce(await context.newPage(), `${local.base}/checkout/`));
      await context.close();
    }
    const ranked = [...runs].sort((a, b) => a.blocking - b.blocking);
    const median = ranked[Math.floor((ranked.length - 1) / 2)]!;
    console.log(
      `\nMain thread of the filled basket after its first paint (Chromium trace, ${RUNS} runs; blocking time is Σ(${SLOWDOWN} × task − ${LONG_MS} ms), a phone ${SLOWDOWN}× slower)`,
    );
    console.log(
      `  median run: blocking ${Math.round(median.blocking)} ms, first paint ${Math.round(median.fcp)} ms, tasks ≥ ${SHOWN_MS} ms:`,
    );
    for (const task of median.tasks)
      console.log(
        `    +${String(Math.round(task.at)).padStart(4)} ms  ${task.ms.toFixed(1).padStart(5)} ms  ${task.what}`,
      );
    console.log(`  every run: ${runs.map((r) => `${Math.round(r.blocking)} ms`).join(', ')}`);
  } finally {
    await browser.close();
    await local.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchMainThread();
  process.exit(0);
}
