import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.ts';
import { stripChartDescriptions } from './scripts/chartDescriptions.ts';
import { entryAfterPaint } from './scripts/entryAfterPaint.ts';
import { queuePage } from './scripts/queuePage.ts';

/** The brand has one name, BRAND_NAME, which the server reads too; the app's build takes it as VITE_BRAND_NAME. */
if (process.env.BRAND_NAME && !process.env.VITE_BRAND_NAME) process.env.VITE_BRAND_NAME = process.env.BRAND_NAME;

const apiPort = Number(process.env.API_PORT ?? 3000);
const api = `http://127.0.0.1:${apiPort}`;

/** Paths the server answers; in development Vite forwards them so the app talks to the same API. */
const serverPaths = [
  '/ajax',
  '/do',
  '/all-events',
  '/event',
  '/signin',
  '/mailing-list',
  '/refund-policy',
  '/legal-information',
  '/account',
  '/dev',
];

/** In development the seat page's paths get its own entry, as the server gives them in production. */
const seatPageInDevelopment: Plugin = {
  name: 'holdfast-seat-page',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url && /^\/events\/book_seats\/[1-9]\d*\/(\?.*)?$/.test(req.url)) req.url = '/seats.html';
      next();
    });
  },
};

/**
 * In development the checkout page gets the server's header and footer around the app's root
 * (server/views/html.ts `checkoutShell`), as the server gives it in production: the app draws neither.
 */
const checkoutShellInDevelopment: Plugin = {
  name: 'holdfast-checkout-shell',
  apply: 'serve',
  async transformIndexHtml(page, ctx) {
    if (!ctx.server || !ctx.filename.endsWith('index.html')) return page;
    const { checkoutShell } = (await ctx.server.ssrLoadModule(
      '/server/views/html.ts',
    )) as typeof import('./server/views/html.ts');
    return page.replace('<div id="root"></div>', checkoutShell(process.env.VITE_BRAND_NAME ?? 'Holdfast'));
  },
};

export default defineConfig({
  plugins: [
    stripChartDescriptions(),
    react(),
    entryAfterPaint(),
    precompress(),
    seatPageInDevelopment,
    checkoutShellInDevelopment,
    queuePage(),
  ],
  resolve: {
    // @xstate/react imports the shim of useSyncExternalStore written for React before 18; React 19
    // has the hook itself, so the package's own entries (which use React's) serve instead.
    alias: [
      {
        find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
        replacement: 'use-sync-external-store/with-selector.js',
      },
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'use-sync-external-store' },
    ],
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    modulePreload: {
      // Every browser the checkout supports preloads modules itself; the polyfill would be dead weight.
      polyfill: false,
    },
    // The seat-selection page is its own entry, so the checkout's entry does not carry it; so is the
    // event page's order form (order-form.html), which the server's catalogue names.
    rollupOptions: {
      input: { main: 'index.html', seats: 'seats.html', orderForm: 'order-form.html' },
      // React and react-dom in one chunk, which the checkout's entry evaluates in a task of its own
      // (src/main.tsx); the page's shared layer (XState, React Query, the call client and
      // the small pieces every step uses) in another, shared with the seat page and the lazy steps.
      output: {
        // The wire contract's chunks (its files and zod; not the spec's words, which go with their screens) are named contract-*.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.length > 0 &&
          chunk.moduleIds.every((id) => /[\\/](contract[\\/](?!messages[\\/])|node_modules[\\/]zod[\\/])/.test(id))
            ? 'assets/contract-[name]-[hash].js'
            : 'assets/[name]-[hash].js',
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|^\0vite\/preload-helper|^\0rolldown\/runtime/,
            },
            {
              name: 'page',
              test: /node_modules[\\/](xstate|@xstate[\\/]react|@tanstack[\\/](query-core|react-query)|use-sync-external-store|use-isomorphic-layout-effect)[\\/]|ui[\\/](Spinner|Icon|Alert|DeterminingScreen)\.tsx|src[\\/]api[\\/]client\.ts|src[\\/]design\.ts|src[\\/]styles\.css|contract[\\/](money|steps|giftAidUplift|page|basketRules|messages[\\/]checkout)\.ts|machines[\\/]checkout[\\/]checkout\.messages\.ts|machines[\\/]providedByApp\.ts|ui[\\/]plural\.ts|src[\\/]components[\\/]Toasts\.tsx|src[\\/]app[\\/](basketCount|headerCount)\.ts|src[\\/]api[\\/]queries\.ts|src[\\/]inspector\.ts|i18n[\\/](runtime|lazy|locales)\.ts|ui[\\/]rich\.tsx/,
            },
            // The checkout's first screen in one chunk: the app's start (src/boot.tsx, the basket's screen and
            // whatever else it imports), the charts that run from the first screen (the root, the basket and
            // the step saver) and what else of it the lazy steps share; not the hold's clock, which starts
            // with the first hold and loads with the later steps. One file, not two: one request, and gzip
            // finds the screen's and the charts' shared words in one window.
            {
              name: 'checkout',
              test: /machines[\\/](checkout|basket|stepSaver)[\\/](?![^\\/]*\.test\.ts$)[^\\/]+\.ts$|ui[\\/]OrderSummary\.tsx|ui[\\/]summary\.ts|src[\\/]steps[\\/]useHeadingFocus\.ts|src[\\/]app[\\/]checkoutContext\.ts|src[\\/]boot\.tsx/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(serverPaths.map((p) => [p, { target: api, changeOrigin: false }])),
  },
});
