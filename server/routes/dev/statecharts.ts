/**
 * The machines for the Stately editor (/dev/statecharts/), served in demo mode only: the files
 * `npm run charts` writes into statecharts/, each as it is in the repository, to copy and import in
 * Stately as they are. A file is also served alone as text (/dev/statecharts/<machine>.stately.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import type { AppDeps } from '../../http/deps.ts';
import { html, page } from '../../views/html.ts';

const FOLDER = fileURLToPath(new URL('../../../statecharts/', import.meta.url));

const fileName = z.object({ file: z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9]{0,63}\.stately\.ts$/)) });

async function statelyFiles(): Promise<string[]> {
  const names = await readdir(FOLDER).catch(() => [] as string[]);
  // The file with every machine first, then one per machine.
  return names
    .filter((name) => name.endsWith('.stately.ts'))
    .sort((a, b) => (a === 'all.stately.ts' ? -1 : b === 'all.stately.ts' ? 1 : a.localeCompare(b)));
}

export function registerStatecharts(app: FastifyInstance, deps: AppDeps): void {
  app.get('/dev/statecharts/', async (_request, reply) => {
    const names = await statelyFiles();
    const files = await Promise.all(
      names.map(async (name) => ({ name, text: await readFile(path.join(FOLDER, name), 'utf8') })),
    );
    reply.header('cache-control', 'no-store');
    return reply.type('text/html; charset=utf-8').send(
      page(
        deps.config,
        'Statecharts',
        html`<h1>Statecharts</h1>
        <p class="muted">Every machine of the checkout, as the Stately editor imports it: open <a href="https://stately.ai/registry/new">a new machine in Stately</a>, choose 'Import from code' and paste a file. <code>all.stately.ts</code> holds the root and every machine it runs.</p>
        ${
          files.length === 0
            ? html`<p>No statechart files: run <code>npm run charts</code>.</p>`
            : html`<ul class="statecharts" role="list">${files.map(
                (f) => html`<li class="panel" data-file="${f.name}">
                <h2><a href="/dev/statecharts/${f.name}">${f.name}</a></h2>
                <details><summary>Show the file</summary><pre class="mail__body">${f.text}</pre></details>
              </li>`,
              )}</ul>`
        }`,
      ),
    );
  });

  app.get('/dev/statecharts/:file', async (request, reply) => {
    const parsed = fileName.safeParse(request.params);
    const names = parsed.success ? await statelyFiles() : [];
    if (!parsed.success || !names.includes(parsed.data.file)) {
      return reply.status(404).type('text/plain; charset=utf-8').send('No such statechart file.');
    }
    const text = await readFile(path.join(FOLDER, parsed.data.file), 'utf8');
    return reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(text);
  });
}
