/**
 * A Vite plugin for the production checkout page (index.html): its entry script and every chunk
 * that starts the app are fetched and run only after the first paint (see ENTRY_LOADER in
 * contract/entryLoader.ts), so the page's own picture (the painted basket) is on screen before any script
 * is downloaded or runs, and no script download competes with the page for a phone's bandwidth.
 * The entry starts the app through dynamic imports, one task each (src/main.tsx); the loader
 * preloads the chunks those load along with the entry's static imports, so they all download at
 * once and splitting the work costs no round trip.
 */
import type { Plugin } from 'vite';

/** The chunks a chunk's dynamic imports need at once: each imported chunk and what it imports statically. */
export function startChunks(
  bundle: Record<string, { type: string; imports?: string[]; dynamicImports?: string[] }>,
  entry: string,
): string[] {
  const found = new Set<string>();
  const add = (file: string) => {
    const chunk = bundle[file];
    if (!chunk || chunk.type !== 'chunk' || found.has(file)) return;
    found.add(file);
    for (const dep of chunk.imports ?? []) add(dep);
  };
  for (const file of bundle[entry]?.dynamicImports ?? []) add(file);
  return [...found];
}
import { ENTRY_LOADER } from '../contract/entryLoader.ts';

const ENTRY = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;

export function entryAfterPaint(): Plugin {
  return {
    name: 'holdfast-entry-after-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.filename.endsWith('index.html')) return html;
        const match = ENTRY.exec(html);
        if (!match) throw new Error('index.html has no module entry script to defer');
        const entry = match[1]!;
        const preloads = [...html.matchAll(PRELOAD)].map((m) => m[1]!);
        const starts = ctx.bundle
          ? startChunks(ctx.bundle as never, entry.replace(/^\//, '')).map((file) => `/${file}`)
          : [];
        const chunks = [...new Set([...preloads, ...starts])].filter((file) => file !== entry);
        const meta = `<meta name="app-entry" content="${entry}" data-preload="${chunks.join(' ')}">`;
        return html.replace(PRELOAD, '').replace(match[0], `${meta}<script>${ENTRY_LOADER}</script>`);
      },
    },
  };
}
