/**
 * Writes a migration for the PL/pgSQL functions whose source file (server/db/functions/) no longer
 * matches what the committed migrations create: a fresh database is migrated, each file compared
 * with it, and the changed files become one custom drizzle-kit migration (`drizzle-kit generate
 * --custom`), one statement each. Then the migrations are run again to show every function now
 * matches its file. `--check` only reports, and fails while a file is ahead of the migrations.
 *
 *   npm run db:functions [-- --check] [-- --name=reserve_rules]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { migrationsFolder } from '../server/db/index.ts';
import { changedFunctions, functionSources, type FunctionChange } from '../server/db/functions.ts';
import { openTestDatabase } from '../server/db/testing.ts';

const STATEMENT_BREAKPOINT = '\n--> statement-breakpoint\n';

async function changesNow(): Promise<FunctionChange[]> {
  const database = await openTestDatabase('pglite');
  try {
    return await changedFunctions(database.db);
  } finally {
    await database.close();
  }
}

function describe(c: FunctionChange): string {
  return `${c.name}: ${typeof c.change === 'string' ? c.change : `fails to run (${c.change.error})`}`;
}

const check = process.argv.includes('--check');
const nameArg = process.argv.find((a) => a.startsWith('--name='))?.slice('--name='.length);

const changes = await changesNow();
if (changes.length === 0) {
  console.log('Every function is as its file defines it: no migration needed.');
  process.exit(0);
}
console.log(changes.map(describe).join('\n'));
const failing = changes.filter((c) => typeof c.change !== 'string');
if (check || failing.length > 0) {
  if (failing.length > 0)
    console.error(
      'A file that does not run cannot become a migration: fix it first (a changed argument list needs a DROP FUNCTION of its own).',
    );
  process.exit(1);
}

const sources = new Map(functionSources().map((s) => [s.name, s.text]));
const name = nameArg ?? `functions_${changes.map((c) => c.name).join('_')}`.slice(0, 60);
execFileSync('npx', ['drizzle-kit', 'generate', '--custom', `--name=${name}`], { stdio: 'inherit' });
const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};
const tag = journal.entries.at(-1)!.tag;
const file = path.join(migrationsFolder, `${tag}.sql`);
writeFileSync(file, changes.map((c) => sources.get(c.name)!.trimEnd()).join(STATEMENT_BREAKPOINT) + '\n');
console.log(`Wrote ${path.relative(process.cwd(), file)}`);

const left = await changesNow();
if (left.length > 0) {
  console.error(`After ${tag} the migrations still differ from the files:\n${left.map(describe).join('\n')}`);
  process.exit(1);
}
console.log('Every function is now as its file defines it.');
