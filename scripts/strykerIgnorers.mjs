/**
 * Parts of a statechart that no test can observe, left out of mutation testing (stryker.config.mjs
 * names them with their reasons):
 * - `description`: documentation for the visualiser and readers, never read at run time;
 * - `types` of `setup()`: a type-only object (`{} as Context`), erased at run time;
 * - an actor's default implementation that only says the app provides it: the app and every test
 *   provide the real one through `.provide()`, so the default never runs; likewise the name given
 *   to such a stand-in (`providedByApp.call('loadPayment')`), which only words its error.
 */
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const keyName = (node) => (node.key?.type === 'Identifier' ? node.key.name : node.key?.value);

/** `providedByApp.call`, `.callback` or `.chart`: a stand-in for what the app provides. */
const isStandIn = (callee) =>
  callee.type === 'MemberExpression' &&
  callee.object.type === 'Identifier' &&
  callee.object.name === 'providedByApp' &&
  callee.property.type === 'Identifier' &&
  ['call', 'callback', 'chart'].includes(callee.property.name);

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
      if (
        path.isStringLiteral() &&
        path.parentPath.isCallExpression() &&
        path.parentPath.node.arguments[0] === path.node &&
        isStandIn(path.parentPath.node.callee)
      ) {
        return 'The name of a stand-in the app and the tests always replace words only its error.';
      }
      return undefined;
    },
  }),
];
