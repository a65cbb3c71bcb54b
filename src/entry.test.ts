/**
 * What the entry script may carry. It is measured against the stack's floor (`npm run bench`), and
 * stays light as steps land only if no step's chart or screen and no schema reaches it through a
 * static import: each step's module (`src/steps/<step>/step.ts`, listed in src/steps/steps.ts) names
 * its chart and screen with dynamic imports, the contract's schemas load with the first call
 * (src/api/client.ts).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** Static value imports of a module (type-only imports and dynamic `import()` left out). */
function staticImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)([^;=()]*?)\s*from\s+['"]([^'"]+)['"]/gm))
    found.push(m[2]!);
  for (const m of source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  return found;
}

function resolveRelative(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (existsSync(candidate) && !candidate.endsWith('/')) {
      try {
        readFileSync(candidate);
        return candidate;
      } catch {
        // a folder
      }
    }
  }
  return null;
}

/** Every module the entry loads before anything lazy: project files (relative to the root) and packages. */
function entryGraph(entry: string) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [resolve(root, entry)];
  while (queue.length) {
    const file = queue.pop()!;
    const name = relative(root, file);
    if (files.has(name)) continue;
    files.add(name);
    // The entry starts the app through dynamic imports, one task each, preloaded along with it: they are part of it.
    const starts =
      name === entry
        ? [...readFileSync(file, 'utf8').matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!)
        : [];
    for (const spec of [...staticImports(file), ...starts]) {
      if (spec.startsWith('.')) {
        const target = resolveRelative(file, spec);
        if (target && !target.endsWith('.css')) queue.push(target);
      } else packages.add(spec);
    }
  }
  return { files, packages };
}

/** The charts the first screen runs: the root, the basket and the children that live as long as the checkout. */
const ENTRY_CHARTS = ['checkout', 'basket', 'countdown', 'stepSaver'];

describe('the entry script', () => {
  const { files, packages } = entryGraph('src/main.tsx');

  it('is followed through the app (the walk finds the basket screen and the root chart)', () => {
    expect(files).toContain('src/steps/basket/BasketStep.tsx');
    expect(files).toContain('machines/checkout/checkout.machine.ts');
  });

  it('carries no step’s chart or screen beyond the basket', () => {
    const charts = [...files]
      .filter((f) => f.startsWith('machines/') && f.split('/').length > 2)
      .map((f) => f.split('/')[1]!);
    expect([...new Set(charts)].filter((c) => !ENTRY_CHARTS.includes(c))).toEqual([]);
    // A step's module (its `step.ts`) names its chart and screen without loading them; determining and the basket are the first screens.
    const firstScreens = ['src/steps/basket/', 'src/steps/determining/'];
    const stepFiles = [...files].filter(
      (f) => f.startsWith('src/steps/') && f.split('/').length > 3 && !f.endsWith('/step.ts'),
    );
    expect(stepFiles.filter((f) => !firstScreens.some((folder) => f.startsWith(folder)))).toEqual([]);
  });

  it('carries none of the contract’s schemas, nor the HTTP library', () => {
    expect([...packages].filter((p) => p === 'ky' || p.startsWith('zod'))).toEqual([]);
    const contract = [...files].filter((f) => f.startsWith('contract/'));
    for (const f of contract)
      expect(
        staticImports(resolve(root, f)).filter((s) => s.startsWith('zod')),
        f,
      ).toEqual([]);
  });

  it('carries nothing the basket needs only after a tap or a call: the dialog, the form encoder', () => {
    expect(files).not.toContain('ui/Modal.tsx');
    expect(files).not.toContain('src/api/form.ts');
  });
});
