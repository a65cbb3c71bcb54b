import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.ts';
import { stripChartDescriptions } from './scripts/chartDescriptions.ts';
import { entryAfterPaint } from './scripts/entryAfterPaint.ts';

const apiPort = Number(process.env.API_PORT ?? 3000);
const api = `http://127.0.0.1:${apiPort}`;

/** Paths the server answers; in development Vite forwards them so the app talks to the same API. */
const serverPaths = ['/ajax', '/do', '/all-events', '/event', '/signin', '/mailing-list', '/refund-policy', '/legal-information', '/account', '/dev'];

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

export default defineConfig({
  plugins: [stripChartDescriptions(), react(), entryAfterPaint(), precompress(), seatPageInDevelopment],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    // The seat-selection page is its own entry, so the checkout's entry does not carry it.
    rollupOptions: {
      input: { main: 'index.html', seats: 'seats.html' },
      // React and react-dom in one chunk, which the checkout's entry evaluates in a task of its own (src/main.tsx).
      output: { codeSplitting: { groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] } },
    },
  },
  server: {
    proxy: Object.fromEntries(serverPaths.map((p) => [p, { target: api, changeOrigin: false }])),
  },
});
