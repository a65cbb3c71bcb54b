/**
 * Where `npm test` spends its time: each phase timed on its own (install with --install, type
 * check, charts check, the Vitest files, the build, each Playwright project), then the slowest
 * test files of both runners. Run from a fresh clone for figures comparable with CI:
 *
 *   npm run test:profile              # phases of npm test
 *   npm run test:profile -- --install # npm ci first, as .ci/run does
 *
 * Exits non-zero when a phase fails, after printing what it measured.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface Phase {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

const out = mkdtempSync(path.join(tmpdir(), 'holdfast-profile-'));
const vitestJson = path.join(out, 'vitest.json');
const playwrightJson = path.join(out, 'playwright.json');

const phases: Phase[] = [
  ...(process.argv.includes('--install')
    ? [{ name: 'install (npm ci)', command: 'npm', args: ['ci', '--no-audit', '--no-fund'] }]
    : []),
  { name: 'typecheck', command: 'npm', args: ['run', '--silent', 'typecheck'] },
  { name: 'charts check', command: 'npm', args: ['run', '--silent', 'charts:check'] },
  {
    name: 'vitest (unit, machines, server)',
    command: 'npx',
    args: ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
  },
  { name: 'build', command: 'npx', args: ['vite', 'build', '--logLevel', 'warn'] },
  // Both projects in one run, as npm test runs them: the servers start once.
  {
    name: 'playwright (desktop and phone)',
    command: 'npx',
    args: ['playwright', 'test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
  },
];

const results: { name: string; seconds: number; ok: boolean }[] = [];
for (const phase of phases) {
  const started = process.hrtime.bigint();
  const run = spawnSync(phase.command, phase.args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...phase.env },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  results.push({ name: phase.name, seconds, ok: run.status === 0 });
}

const files = new Map<string, number>();
if (existsSync(vitestJson)) {
  const report = JSON.parse(readFileSync(vitestJson, 'utf8')) as {
    testResults: { name: string; startTime: number; endTime: number }[];
  };
  for (const r of report.testResults)
    files.set(`vitest  ${path.relative(process.cwd(), r.name)}`, (r.endTime - r.startTime) / 1000);
}
interface PwSuite {
  file: string;
  specs?: { tests: { projectName: string; results: { duration: number }[] }[] }[];
  suites?: PwSuite[];
}
/** Adds each test's time to its file's entry under its project. */
function addTimes(suite: PwSuite, file: string): void {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests) {
      const key = `e2e/${test.projectName}  ${file}`;
      files.set(key, (files.get(key) ?? 0) + test.results.reduce((r, res) => r + res.duration, 0) / 1000);
    }
  }
  for (const child of suite.suites ?? []) addTimes(child, file);
}
if (existsSync(playwrightJson)) {
  const report = JSON.parse(readFileSync(playwrightJson, 'utf8')) as { suites: PwSuite[] };
  for (const suite of report.suites) addTimes(suite, suite.file);
}

const pad = (s: string, n: number) => s.padEnd(n);
console.log('\nphase                                  seconds');
for (const r of results) console.log(`${pad(r.name, 38)} ${r.seconds.toFixed(1).padStart(7)}${r.ok ? '' : '  FAILED'}`);
console.log(
  `${pad('total', 38)} ${results
    .reduce((s, r) => s + r.seconds, 0)
    .toFixed(1)
    .padStart(7)}`,
);
console.log('\nslowest test files (summed test time; Playwright runs 2 workers, Vitest one process per file)');
for (const [name, seconds] of [...files].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`${seconds.toFixed(1).padStart(7)}  ${name}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
