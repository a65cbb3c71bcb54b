/**
 * Parts of a statechart that no test can observe, left out of mutation testing (stryker.config.mjs
 * names them with their reasons):
 * - `description`: documentation for the visualiser and readers, never read at run time;
 * - `types` of `setup()`: a type-only object (`{} as Context`), erased at run time;
 * - an actor's default implementation that only says the app provides it: the app and every test
 *   provide the real one through `.provide()`, so the default never runs.
 */
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const keyName = (node) => (node.key?.type === 'Identifier' ? node.key.name : node.key?.value);

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'ChartDocumentation', {
    shouldIgnore(path) {
      if (path.isObjectProperty() && keyName(path.node) === 'description')
        return 'A description is documentation only.';
      if (
        path.isObjectProperty() &&
        keyName(path.node) === 'types' &&
        path.parentPath.parentPath?.isCallExpression() &&
        path.parentPath.parentPath.node.callee.type === 'Identifier' &&
        path.parentPath.parentPath.node.callee.name === 'setup'
      ) {
        return 'The types of setup() exist for the compiler only.';
      }
      if (
        (path.isArrowFunctionExpression() || path.isFunctionExpression()) &&
        /is provided by the app/.test(path.getSource())
      ) {
        return 'A default implementation the app and the tests always replace.';
      }
      return undefined;
    },
  }),
];
