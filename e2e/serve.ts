/**
 * Starts one end-to-end server (playwright.config.ts) on its own copy of a database made once for
 * the run: the first server to start migrates it and seeds the demo catalogue, the others wait for
 * it and copy its files, so the servers start without each doing that work again.
 *
 * E2E_TEMPLATE_DIR is the run's database, PGLITE_DIR the server's own copy; the server is then
 * started as `npm start` starts it (server/main.ts), with the rest of the environment unchanged.
 */
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../server/db/index.ts';
import { seedIfEmpty } from '../server/seed.ts';
import { seatPlans } from '../server/db/schema.ts';

const { E2E_TEMPLATE_DIR: template, PGLITE_DIR: own } = process.env;
if (!template || !own) throw new Error('E2E_TEMPLATE_DIR and PGLITE_DIR must be set');

async function runDatabase(template: string): Promise<void> {
  const ready = path.join(template, 'ready');
  if (existsSync(ready)) return;
  try {
    // Making a directory is atomic: one server makes the database, the others wait for it.
    mkdirSync(`${template}.lock`);
  } catch {
    for (let waited = 0; !existsSync(ready); waited += 100) {
      if (waited > 120_000) throw new Error(`The run's database at ${template} was not made within two minutes`);
      await sleep(100);
    }
    return;
  }
  const building = `${template}.building`;
  rmSync(building, { recursive: true, force: true });
  const database = await openDatabase({ databaseUrl: null, pgliteDir: path.join(building, 'pglite') }, (db) =>
    seedIfEmpty(db),
  );
  await database.close();
  renameSync(building, template);
  writeFileSync(ready, '');
}

await runDatabase(template);
rmSync(own, { recursive: true, force: true });
mkdirSync(path.dirname(own), { recursive: true });
cpSync(path.join(template, 'pglite'), own, { recursive: true });
if (process.env.E2E_SEATSIO_PLANS === '1') {
  // The seatsio server's plans are seats.io's: the event key is the plan's own identifier.
  const database = await openDatabase({ databaseUrl: null, pgliteDir: own });
  await database.db.update(seatPlans).set({ provider: 'seatsio' });
  await database.close();
}
await import('../server/main.ts');
