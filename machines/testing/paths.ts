/**
 * The coverage file `reports/paths.json`: per machine, the simple paths of its chart (every guard
 * free, over the state value or each region: `chartPaths.ts`), the bound its walk must take (the
 * same, or the paths over a projection that merges states proven to behave alike), and how many of
 * them the walks took. Each walk checks its machine's entry: a walk that takes fewer paths than the
 * file says, or a chart whose counts changed, fails (`PATHS_UPDATE=1` rewrites the entry after a
 * change that is meant). `npx tsx machines/testing/paths.ts` prints the table.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface PathsEntry {
  /** Simple paths of the chart over the state value (each region on its own), every guard free; null over the counting limit. */
  chartPaths: number | null;
  /** What the walk must take: the chart's paths, or those over the stated projection. */
  bound: number;
  /** The projection the bound is counted over, and why it is safe. */
  projection: string;
  /** Chart paths the real machine cannot take, left out of the bound: why, and how many (tested by the walk). */
  unreachable?: Array<{ why: string; paths: number }>;
  /** The bound's paths the walks took. */
  walked: number;
}

export const PATHS_FILE = fileURLToPath(new URL('../../reports/paths.json', import.meta.url));
const LOCK = `${PATHS_FILE}.lock`;

export function readPaths(): Record<string, PathsEntry> {
  return existsSync(PATHS_FILE) ? (JSON.parse(readFileSync(PATHS_FILE, 'utf8')) as Record<string, PathsEntry>) : {};
}

function withLock<T>(run: () => T): T {
  for (let i = 0; ; i++) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (i > 2000) throw new Error(`${LOCK} is held`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
  try {
    return run();
  } finally {
    rmdirSync(LOCK);
  }
}

/**
 * Checks a machine's walked paths against the file (or, with `PATHS_UPDATE=1`, writes them):
 * the walk must take at least what the file says, and the chart's counts must be the file's.
 */
export function keepPaths(name: string, entry: PathsEntry): void {
  if (process.env.PATHS_UPDATE === '1') {
    withLock(() => {
      const all = readPaths();
      all[name] = entry;
      const sorted = Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
      writeFileSync(PATHS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
    });
    return;
  }
  const kept = readPaths()[name];
  const update = 'run the walk with PATHS_UPDATE=1 and commit reports/paths.json';
  if (!kept) throw new Error(`${name}: no entry in reports/paths.json: ${update}`);
  if (entry.walked < kept.walked) {
    throw new Error(
      `${name}: the walk takes ${entry.walked} of the ${entry.bound} simple paths, fewer than the ${kept.walked} it took (reports/paths.json)`,
    );
  }
  if (
    entry.chartPaths !== kept.chartPaths ||
    entry.bound !== kept.bound ||
    entry.projection !== kept.projection ||
    JSON.stringify(entry.unreachable ?? []) !== JSON.stringify(kept.unreachable ?? [])
  ) {
    throw new Error(
      `${name}: the chart now has ${entry.chartPaths} simple paths, bound ${entry.bound} over ${entry.projection}; ` +
        `reports/paths.json says ${kept.chartPaths}, ${kept.bound} over ${kept.projection}: ${update}`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = Object.entries(readPaths()).map(([name, e]) => ({
    machine: name,
    'chart simple paths': e.chartPaths ?? 'over the limit',
    bound: e.bound,
    walked: e.walked,
    complete: e.walked === e.bound ? 'yes' : `${e.bound - e.walked} missing`,
    projection: e.projection,
    unreachable: (e.unreachable ?? []).map((u) => `${u.paths}: ${u.why}`).join('; '),
  }));
  console.table(rows);
}
