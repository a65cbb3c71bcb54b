import { describe, expect, it } from 'vitest';
import { ENTRY_LOADER } from '../contract/page';
import { entryAfterPaint } from './entryAfterPaint';

const BUILT = '<head><title>Checkout</title><script type="module" crossorigin src="/assets/main-abc.js"></script><link rel="modulepreload" crossorigin href="/assets/x.js"></head><body><div id="root"></div></body>';

function transform(html: string, filename: string): string {
  const hook = entryAfterPaint().transformIndexHtml as { handler: (html: string, ctx: { filename: string }) => string };
  return hook.handler(html, { filename });
}

describe('the checkout entry runs after the first paint', () => {
  it('fetches the entry at once and adds it with the loader, on the checkout page only', () => {
    const out = transform(BUILT, '/app/index.html');
    expect(out).not.toContain('<script type="module"');
    expect(out).toContain('<link rel="modulepreload" crossorigin href="/assets/main-abc.js" data-entry>');
    expect(out).toContain(`<script>${ENTRY_LOADER}</script>`);
    expect(out).toContain('href="/assets/x.js"');
    expect(transform(BUILT, '/app/seats.html')).toBe(BUILT);
  });
});
