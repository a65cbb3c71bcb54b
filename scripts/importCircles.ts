/**
 * Lists the import circles among the project's own files: `tsx scripts/importCircles.ts [folder ...]`
 * (default `src`). A circle is a set of files each reaching the others by imports (a strongly
 * connected component of the import graph). Each file's static imports, re-exports and `import()`s
 * are listed as the build reads them (`--static` leaves `import()` out), and its imports of types
 * only as well, which the build strips: a reader following a type still walks the circle. Exits 1
 * when a folder has a circle.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { init, parse } from 'es-module-lexer';

const root = resolve(import.meta.dirname, '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : filesUnder(path);
    return /\.tsx?$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

/** The file a relative specifier names, or undefined for a package or a file that is not TypeScript. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((c) => /\.tsx?$/.test(c) && existsSync(c) && statSync(c).isFile());
}

/** The specifiers of a file's imports and re-exports of types only (`import type`, `import { type A }`), which the build strips. */
function typeImportsOf(source: string): string[] {
  const whole = [...source.matchAll(/\b(?:import|export)\s+type\s+[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/g)].map(
    (m) => m[1]!,
  );
  const named = [...source.matchAll(/\bimport\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)]
    .filter(([, names]) => {
      const each = names!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      return each.length > 0 && each.every((n) => n.startsWith('type '));
    })
    .map((m) => m[2]!);
  return [...whole, ...named];
}

function importsOf(file: string, staticOnly: boolean): string[] {
  const source = readFileSync(file, 'utf8');
  const types = typeImportsOf(source).flatMap((specifier) => resolveSpecifier(file, specifier) ?? []);
  const { code } = transformSync(source, {
    loader: file.endsWith('x') ? 'tsx' : 'ts',
    jsx: 'automatic',
    format: 'esm',
  });
  const [imports] = parse(code);
  // `d` is -1 for a static import or re-export, the position of `import(` for a dynamic one, -2 for import.meta.
  return [
    ...imports.flatMap((i) =>
      i.d === -2 || (staticOnly && i.d >= 0) || !i.n ? [] : (resolveSpecifier(file, i.n) ?? []),
    ),
    ...types,
  ];
}

/** Tarjan's strongly connected components of the graph, those with more than one file (or a file importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) connect(v);
  return found;
}

const found = new Map<boolean, string[][]>();

/** Every import circle of the project's own files (read once). */
function circlesOfProject(staticOnly: boolean): string[][] {
  if (!found.has(staticOnly)) {
    const all = ['src', 'server', 'contract', 'machines', 'i18n', 'ui'].flatMap((f) =>
      existsSync(join(root, f)) ? filesUnder(join(root, f)) : [],
    );
    found.set(staticOnly, circles(new Map(all.map((file) => [file, importsOf(file, staticOnly)]))));
  }
  return found.get(staticOnly)!;
}

/** The import circles that take in a file of `folder` (relative to the project's root). */
export async function importCirclesIn(folder: string, options: { staticOnly?: boolean } = {}): Promise<string[][]> {
  await init;
  const staticOnly = options.staticOnly ?? false;
  return circlesOfProject(staticOnly)
    .map((c) => c.map((file) => relative(root, file)))
    .filter((c) => c.some((file) => file.startsWith(`${folder}/`)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const staticOnly = args.includes('--static');
  const folders = args.filter((a) => !a.startsWith('--'));
  let failed = false;
  for (const folder of folders.length ? folders : ['src']) {
    const inFolder = await importCirclesIn(folder, { staticOnly });
    console.log(`${folder}/: ${inFolder.length} import circle(s)${staticOnly ? ' (static imports)' : ''}`);
    for (const c of inFolder) {
      failed = true;
      console.log(`  ${c.length} files: ${c.join(', ')}`);
    }
  }
  process.exit(failed ? 1 : 0);
}
