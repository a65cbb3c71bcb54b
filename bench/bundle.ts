/**
 * Browser weight: builds the app and prints the gzip size of the JavaScript a buyer downloads
 * before the checkout can render (the entry script and the chunks it preloads), then every chunk.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const outDir = 'dist/client';

function gzipKb(path: string): number {
  return gzipSync(readFileSync(path), { level: 9 }).length / 1024;
}

export function benchBundle(): { initialKb: number } {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit' });
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const css = [...html.matchAll(/href="\/(assets\/[^"]+\.css)"/g)].map((m) => m[1]!);
  const initialKb = initial.reduce((sum, file) => sum + gzipKb(join(outDir, file)), 0);
  const cssKb = css.reduce((sum, file) => sum + gzipKb(join(outDir, file)), 0);

  console.log('\n## Browser bundle (gzip, level 9)');
  console.log(`initial checkout JS: ${initialKb.toFixed(1)} KB in ${initial.length} file(s); CSS ${cssKb.toFixed(1)} KB`);
  const chunks = readdirSync(join(outDir, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ f, kb: gzipKb(join(outDir, 'assets', f)), initial: initial.includes(`assets/${f}`) }))
    .sort((a, b) => b.kb - a.kb);
  for (const c of chunks) console.log(`  ${c.kb.toFixed(1).padStart(7)} KB  ${c.initial ? 'initial' : 'lazy   '}  ${c.f}`);
  return { initialKb };
}
