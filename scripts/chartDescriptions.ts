/**
 * A Vite plugin for production builds: leaves the charts' `description` texts out of the browser
 * bundle. They document states and transitions for statecharts.md and the Stately visualiser
 * (both read the charts from source, in Node); nothing reads them while the app runs. Development
 * builds keep them, so the inspector (`?inspect`) shows them.
 */
import path from 'node:path';
import ts from 'typescript';
import type { Plugin } from 'vite';

const CHART_FILE = /[\\/]machines[\\/](?!testing[\\/]).+(?<!\.test)\.ts$/;

/** The source with every `description: '<text>'` property (a plain string) removed. */
export function withoutDescriptions(source: string, fileName: string): string {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const cuts: Array<[number, number]> = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertyAssignment(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === 'description' &&
      (ts.isStringLiteral(node.initializer) || ts.isNoSubstitutionTemplateLiteral(node.initializer))
    ) {
      let end = node.getEnd();
      if (source[end] === ',') end += 1;
      cuts.push([node.getStart(file), end]);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = source;
  for (const [start, end] of cuts.reverse()) out = out.slice(0, start) + out.slice(end);
  return out;
}

export function stripChartDescriptions(): Plugin {
  return {
    name: 'holdfast-strip-chart-descriptions',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!CHART_FILE.test(file)) return null;
      return { code: withoutDescriptions(code, path.basename(file)), map: null };
    },
  };
}
