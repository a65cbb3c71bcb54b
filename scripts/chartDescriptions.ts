/**
 * A Vite plugin for production builds: leaves the charts' `description` texts out of the browser
 * bundle. They document states and transitions for statecharts.md and the Stately visualiser
 * (both read the charts from source, in Node); nothing reads them while the app runs. Development
 * builds keep them, so the inspector (`?inspect`) shows them.
 *
 * Likewise a step module's (`src/steps/<step>/step.ts`) chart documentation, which only
 * statecharts.md reads (scripts/charts.ts, in Node): its `file`, `placement` and `definition`
 * (the chart as written, without the app's calls).
 */
import path from 'node:path';
import { parseSync, Visitor, type Plugin } from 'vite';

const CHART_FILE = /[\\/]machines[\\/](?!testing[\\/]).+(?<!\.test)\.ts$/;
const STEP_MODULE = /[\\/]src[\\/]steps[\\/][^\\/]+[\\/]step\.ts$/;
const STEP_DOCUMENTATION = ['file', 'placement', 'definition'];

/**
 * The source with every `description: '<text>'` property (a plain string) removed, found with the
 * parser Vite builds with (Oxc), whose offsets count UTF-16 units as JavaScript strings do.
 */
export function withoutDescriptions(source: string, fileName: string): string {
  return withoutProperties(source, fileName, (name, plainText) => name === 'description' && plainText);
}

/** The source without a step module's chart documentation (any value). */
export function withoutStepDocumentation(source: string, fileName: string): string {
  return withoutProperties(source, fileName, (name) => STEP_DOCUMENTATION.includes(name));
}

function withoutProperties(
  source: string,
  fileName: string,
  cut: (name: string, plainText: boolean) => boolean,
): string {
  const { program } = parseSync(fileName, source, { lang: 'ts' });
  const cuts: Array<[number, number]> = [];
  new Visitor({
    Property(node) {
      const plainText =
        (node.value.type === 'Literal' && typeof node.value.value === 'string') ||
        (node.value.type === 'TemplateLiteral' && node.value.expressions.length === 0);
      if (node.key.type === 'Identifier' && !node.computed && cut(node.key.name, plainText)) {
        cuts.push([node.start, source[node.end] === ',' ? node.end + 1 : node.end]);
      }
    },
  }).visit(program);
  let out = source;
  for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + out.slice(end);
  return out;
}

export function stripChartDescriptions(): Plugin {
  return {
    name: 'holdfast-strip-chart-descriptions',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (STEP_MODULE.test(file)) return { code: withoutStepDocumentation(code, path.basename(file)), map: null };
      if (!CHART_FILE.test(file)) return null;
      return { code: withoutDescriptions(code, path.basename(file)), map: null };
    },
  };
}
