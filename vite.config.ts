import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.ts';

const apiPort = Number(process.env.API_PORT ?? 3000);
const api = `http://127.0.0.1:${apiPort}`;

/** Paths the server answers; in development Vite forwards them so the app talks to the same API. */
const serverPaths = ['/ajax', '/do', '/all-events', '/event', '/signin', '/mailing-list', '/refund-policy', '/legal-information', '/account', '/dev'];

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: Object.fromEntries(serverPaths.map((p) => [p, { target: api, changeOrigin: false }])),
  },
});
