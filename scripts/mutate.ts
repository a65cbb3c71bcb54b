/**
 * `npm run mutate [machine …]`: mutation testing of every machine folder (or the ones named), one
 * Stryker run per folder against that folder's own tests, then one table of scores per file.
 * A file scores the share of its mutants that some test noticed (killed or timed out) among those
 * that ran; the goal is 90 % for every file. Figures, not a gate: the exit code is 0 either way.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const GOAL = 90;

const all = readdirSync(path.join(root, 'machines')).filter(
  (name) => name !== 'testing' && statSync(path.join(root, 'machines', name)).isDirectory(),
);
const asked = process.argv.slice(2);
const machines = asked.length ? asked : all;
for (const name of machines)
  if (!all.includes(name)) throw new Error(`No machine folder '${name}' (have: ${all.join(', ')})`);

interface Report {
  files: Record<string, { mutants: Array<{ status: string }> }>;
}

const rows: Array<{ file: string; detected: number; survived: number; noCoverage: number; total: number }> = [];
for (const name of machines) {
  console.log(`\n== mutating machines/${name} ==`);
  const run = spawnSync('npx', ['stryker', 'run'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MUTATE_MACHINE: name },
  });
  const reportFile = path.join(root, 'reports/mutation', `${name}.json`);
  if (run.status !== 0 || !existsSync(reportFile)) {
    console.log(`machines/${name}: Stryker did not finish (exit ${run.status})`);
    continue;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const count = (...statuses: string[]) => mutants.filter((m) => statuses.includes(m.status)).length;
    rows.push({
      file,
      detected: count('Killed', 'Timeout'),
      survived: count('Survived'),
      noCoverage: count('NoCoverage'),
      total: count('Killed', 'Timeout', 'Survived', 'NoCoverage'),
    });
  }
}

console.log(`\nfile | killed | survived | no coverage | score | goal ${GOAL} %`);
console.log('--- | ---: | ---: | ---: | ---: | ---');
for (const row of rows.sort((a, b) => a.file.localeCompare(b.file))) {
  const score = row.total ? (100 * row.detected) / row.total : 100;
  console.log(
    `${row.file} | ${row.detected} | ${row.survived} | ${row.noCoverage} | ${score.toFixed(1)} % | ${score >= GOAL ? 'met' : 'below'}`,
  );
}
