/**
 * A Vite plugin for the production checkout page (index.html): its entry script is fetched at once
 * but run after the first paint (see ENTRY_LOADER in contract/page.ts), so the page's own picture
 * (the painted basket) is on screen before any script runs, however fast the script arrives.
 */
import type { Plugin } from 'vite';
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
        return html.replace(match[0], `<link rel="modulepreload" crossorigin href="${match[1]}" data-entry><script>${ENTRY_LOADER}</script>`);
      },
    },
  };
}
