/**
 * Browser weight: builds the app and prints the gzip size of the JavaScript a buyer downloads
 * before the checkout can render (the entry script and the chunks the page names to preload with
 * it), then every chunk.
 * Beside it, the floor: a trivial app of the stack's five runtime packages (React, react-dom,
 * XState, @xstate/react, React Query) built by the same Vite in the same run, and the ratio.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const outDir = 'dist/client';

function gzipKb(path: string): number {
  return gzipSync(readFileSync(path), { level: 9 }).length / 1024;
}

function initialScripts(dir: string): string[] {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  // A script's src, a preload's href, or the checkout page's app-entry list (see scripts/entryAfterPaint.ts).
  return [...new Set([...html.matchAll(/(?<=["\s])\/(assets\/[^"\s]+\.js)(?=["\s])/g)].map((m) => m[1]!))];
}

const FLOOR_APP = `
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createMachine } from 'xstate';
import { useMachine } from '@xstate/react';

const machine = createMachine({ initial: 'idle', states: { idle: { on: { GO: 'busy' } }, busy: {} } });
const client = new QueryClient();
function App() {
  const [state, send] = useMachine(machine);
  const { data } = useQuery({ queryKey: ['x'], queryFn: async () => 'ok' });
  return <button onClick={() => send({ type: 'GO' })}>{String(state.value)} {data}</button>;
}
createRoot(document.getElementById('root')!).render(<StrictMode><QueryClientProvider client={client}><App /></QueryClientProvider></StrictMode>);
`;

/** The same Vite and React plugin building nothing but the five packages. */
export function floorKb(): number {
  const root = mkdtempSync(join(process.cwd(), 'node_modules', '.bench-floor-'));
  try {
    mkdirSync(join(root, 'src'));
    writeFileSync(
      join(root, 'index.html'),
      '<!doctype html><html><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>',
    );
    writeFileSync(join(root, 'src', 'main.tsx'), FLOOR_APP);
    writeFileSync(
      join(root, 'vite.config.mjs'),
      `import react from '@vitejs/plugin-react';\nexport default { root: ${JSON.stringify(root)}, plugins: [react()], build: { outDir: 'dist', emptyOutDir: true }, logLevel: 'error' };\n`,
    );
    execFileSync('npx', ['vite', 'build', '--config', join(root, 'vite.config.mjs')], { stdio: 'inherit' });
    return initialScripts(join(root, 'dist')).reduce((sum, file) => sum + gzipKb(join(root, 'dist', file)), 0);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function benchBundle(): { initialKb: number; floorKb: number } {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit' });
  const initial = initialScripts(outDir);
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const css = [...html.matchAll(/href="\/(assets\/[^"]+\.css)"/g)].map((m) => m[1]!);
  const initialKb = initial.reduce((sum, file) => sum + gzipKb(join(outDir, file)), 0);
  const cssKb = css.reduce((sum, file) => sum + gzipKb(join(outDir, file)), 0);
  const floor = floorKb();

  console.log('\n## Browser bundle (gzip, level 9)');
  console.log(
    `initial checkout JS: ${initialKb.toFixed(1)} KB in ${initial.length} file(s); CSS ${cssKb.toFixed(1)} KB`,
  );
  console.log(`floor (React, react-dom, XState, @xstate/react, React Query alone, same Vite): ${floor.toFixed(1)} KB`);
  console.log(`  ratio entry ÷ floor: ${(initialKb / floor).toFixed(3)} (goal ≤ 1.25)`);
  const chunks = readdirSync(join(outDir, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ f, kb: gzipKb(join(outDir, 'assets', f)), initial: initial.includes(`assets/${f}`) }))
    .sort((a, b) => b.kb - a.kb);
  for (const c of chunks)
    console.log(`  ${c.kb.toFixed(1).padStart(7)} KB  ${c.initial ? 'initial' : 'lazy   '}  ${c.f}`);
  return { initialKb, floorKb: floor };
}

if (import.meta.url === `file://${process.argv[1]}`) benchBundle();
