import { describe, expect, it } from 'vitest';
import { ENTRY_LOADER } from '../contract/entryLoader';
import { entryAfterPaint } from './entryAfterPaint';

const BUILT =
  '<head><title>Checkout</title><script type="module" crossorigin src="/assets/main-abc.js"></script><link rel="modulepreload" crossorigin href="/assets/x.js"></head><body><div id="root"></div></body>';

function transform(html: string, filename: string, bundle?: Record<string, object>): string {
  const hook = entryAfterPaint().transformIndexHtml as {
    handler: (html: string, ctx: { filename: string; bundle?: Record<string, object> }) => string;
  };
  return hook.handler(html, { filename, bundle });
}

describe('the checkout entry runs after the first paint', () => {
  it('fetches no script before the first paint: the loader adds the entry and preloads its imports, on the checkout page only', () => {
    const out = transform(BUILT, '/app/index.html');
    expect(out).not.toContain('<script type="module"');
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).toContain('<meta name="app-entry" content="/assets/main-abc.js" data-preload="/assets/x.js">');
    expect(out).toContain(`<script>${ENTRY_LOADER}</script>`);
    expect(transform(BUILT, '/app/seats.html')).toBe(BUILT);
  });

  it('preloads what the entry starts the app with (its dynamic imports and their static imports), and nothing lazier', () => {
    const bundle = {
      'assets/main-abc.js': {
        type: 'chunk',
        imports: ['assets/x.js'],
        dynamicImports: ['assets/client.js', 'assets/boot.js'],
      },
      'assets/client.js': { type: 'chunk', imports: ['assets/react.js'], dynamicImports: [] },
      'assets/boot.js': {
        type: 'chunk',
        imports: ['assets/react.js', 'assets/xstate.js'],
        dynamicImports: ['assets/PaymentStep.js'],
      },
      'assets/react.js': { type: 'chunk', imports: [] },
      'assets/xstate.js': { type: 'chunk', imports: [] },
      'assets/PaymentStep.js': { type: 'chunk', imports: ['assets/stripe.js'] },
      'assets/x.js': { type: 'chunk', imports: [] },
    };
    const out = transform(BUILT, '/app/index.html', bundle);
    const preloaded = /data-preload="([^"]*)"/.exec(out)![1]!.split(' ');
    expect(preloaded.sort()).toEqual([
      '/assets/boot.js',
      '/assets/client.js',
      '/assets/react.js',
      '/assets/x.js',
      '/assets/xstate.js',
    ]);
  });
});
