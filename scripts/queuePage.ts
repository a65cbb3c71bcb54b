/**
 * A Vite plugin that builds the queue page's script (queue.html, src/queue/main.ts) as a build of
 * its own once the app's build is written: the app's chunking puts XState beside React, which the
 * queue page does not need, so the queue script gets only what it imports.
 */
import { build, type Plugin } from 'vite';
import { precompress } from './precompress.ts';

export function queuePage(): Plugin {
  let outDir = 'dist/client';
  return {
    name: 'holdfast-queue-page',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        plugins: [precompress()],
        build: {
          outDir,
          emptyOutDir: false,
          sourcemap: false,
          modulePreload: { polyfill: false },
          rollupOptions: { input: { queue: 'queue.html' }, output: { entryFileNames: 'assets/queue-[hash].js', chunkFileNames: 'assets/queue-[name]-[hash].js' } },
        },
      });
    },
  };
}
