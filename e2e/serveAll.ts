/**
 * Starts every end-to-end server at once and answers on E2E_READY_PORT once all of them answer.
 * Playwright starts the servers it is given one after another, each waiting for the one before;
 * started together they are up in about half the time.
 *
 * E2E_SERVERS is the list playwright.config.ts makes: each server's name, script, environment and
 * the address that answers once it is up. A server that stops stops the run; stopping this process
 * (Playwright sends its process group SIGTERM at the end) stops them all and removes the run's
 * databases.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

interface ServerToStart {
  name: string;
  /** A TypeScript file run with Node and tsx. */
  script: string;
  env: Record<string, string>;
  url: string;
}

const list = JSON.parse(process.env.E2E_SERVERS ?? '[]') as ServerToStart[];
const readyPort = Number(process.env.E2E_READY_PORT);
if (list.length === 0 || !Number.isInteger(readyPort)) throw new Error('E2E_SERVERS and E2E_READY_PORT must be set');

const children: ChildProcess[] = [];
let stopping = false;

/** The servers' own databases and the run's, removed once the servers have stopped. */
const databases = [
  ...new Set(
    list.flatMap((server) => [server.env.PGLITE_DIR, server.env.E2E_TEMPLATE_DIR]).filter((dir) => dir !== undefined),
  ),
];

async function stopAll(code: number): Promise<never> {
  stopping = true;
  const stopped = children.map((child) =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => child.once('exit', resolve)),
  );
  for (const child of children) child.kill('SIGTERM');
  await Promise.race([Promise.all(stopped), sleep(5_000)]);
  for (const dir of databases)
    for (const path of [dir, `${dir}.lock`, `${dir}.building`]) rmSync(path, { recursive: true, force: true });
  process.exit(code);
}
process.once('SIGTERM', () => void stopAll(0));
process.once('SIGINT', () => void stopAll(0));

for (const server of list) {
  const child = spawn(process.execPath, ['--import', 'tsx', server.script], {
    env: { ...process.env, ...server.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${server.name}] ${chunk.toString()}`));
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`The ${server.name} end-to-end server stopped (${code ?? signal}).`);
    void stopAll(1);
  });
  children.push(child);
}

/** Resolves once the address answers with a success. */
async function answering(url: string): Promise<void> {
  for (;;) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
}

await Promise.all(list.map((server) => answering(server.url)));
createServer((_request, response) => response.end('ready')).listen(readyPort, '127.0.0.1');
