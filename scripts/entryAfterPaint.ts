/**
 * A Vite plugin for the production checkout page (index.html): its entry script is fetched at once
 * but run after the first paint (see ENTRY_LOADER in contract/page.ts), so the page's own picture
 * (the painted basket) is on screen before any script runs, however fast the script arrives.
 * The entry starts the app through dynamic imports, one task each (src/main.tsx); the chunks those
 * load are preloaded with the page too, so splitting the work costs no round trip.
 */
import type { Plugin } from 'vite';

/** The chunks a chunk's dynamic imports need at once: each imported chunk and what it imports statically. */
export function startChunks(bundle: Record<string, { type: string; imports?: string[]; dynamicImports?: string[] }>, entry: string): string[] {
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
import { ENTRY_LOADER } from '../contract/page.ts';

const ENTRY = /<script type="module" crossorigin src="([^"]+)"><\/script>/;

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
        const entry = match[1]!.replace(/^\//, '');
        const preloaded = new Set([...html.matchAll(/href="\/([^"]+\.js)"/g)].map((m) => m[1]!));
        const starts = ctx.bundle ? startChunks(ctx.bundle as never, entry).filter((file) => !preloaded.has(file) && file !== entry) : [];
        const links = starts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');
        return html.replace(match[0], `<link rel="modulepreload" crossorigin href="${match[1]}" data-entry>${links}<script>${ENTRY_LOADER}</script>`);
      },
    },
  };
}
