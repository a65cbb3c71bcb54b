/**
 * A Vite plugin that builds the queue page's script (queue.html, src/queue/main.ts) as a build of
 * its own once the app's build is written: the app's chunking puts XState beside React, which the
 * queue page does not need, so the queue script gets only what it imports. Its files get their
 * brotli and gzip copies as the app's do (scripts/precompress.ts).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';

const MIN_BYTES = 1024;

const compressOwnFiles = (outDir: string): Plugin => ({
  name: 'holdfast-queue-page-compress',
  writeBundle(_options, bundle) {
    for (const file of Object.values(bundle)) {
      const body = file.type === 'chunk' ? Buffer.from(file.code) : Buffer.from(file.source);
      if (body.length < MIN_BYTES || !/\.(js|css|html)$/.test(file.fileName)) continue;
      const full = path.join(outDir, file.fileName);
      writeFileSync(`${full}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      writeFileSync(`${full}.gz`, gzipSync(body, { level: 9 }));
    }
  },
});

export function queuePage(): Plugin {
  let outDir = 'dist/client';
  return {
    name: 'holdfast-queue-page',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        plugins: [compressOwnFiles(outDir)],
        build: {
          outDir,
          emptyOutDir: false,
          sourcemap: false,
          modulePreload: { polyfill: false },
          rollupOptions: {
            input: { queue: 'queue.html' },
            output: { entryFileNames: 'assets/queue-[hash].js', chunkFileNames: 'assets/queue-[name]-[hash].js' },
          },
        },
      });
    },
  };
}
