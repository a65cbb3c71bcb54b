/**
 * ICU MessageFormat to the runtime's data (i18n/runtime.ts), with @messageformat/parser: on the
 * server when it starts and in the tests, never in the browser. A message's placeholders (the
 * arguments it names) are read here too, so every locale can be checked against the source's.
 */
import { parse, type Token } from '@messageformat/parser';
import type { Cases, Message, Part } from './runtime.ts';

const KINDS = { plural: 2, selectordinal: 3, select: 4 } as const;

function compileTokens(tokens: Token[]): Message {
  const parts: Part[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'content':
        if (typeof parts[parts.length - 1] === 'string') parts[parts.length - 1] += token.value;
        else parts.push(token.value);
        break;
      case 'octothorpe':
        parts.push(0);
        break;
      case 'argument':
        parts.push([token.arg]);
        break;
      case 'function':
        if (token.key !== 'number')
          throw new Error(`{${token.arg}, ${token.key}} is not supported: format dates and money in code, with Intl`);
        parts.push([token.arg, 1]);
        break;
      case 'plural':
      case 'selectordinal':
      case 'select': {
        const cases: Cases = {};
        for (const c of token.cases) cases[c.key] = compileTokens(c.tokens);
        if (token.type === 'select') parts.push([token.arg, 4, cases]);
        else
          parts.push(
            token.pluralOffset
              ? [token.arg, KINDS[token.type], cases, token.pluralOffset]
              : [token.arg, KINDS[token.type], cases],
          );
        break;
      }
    }
  }
  if (parts.length === 0) return '';
  if (parts.length === 1 && typeof parts[0] === 'string') return parts[0];
  return parts;
}

/** The plural categories Intl knows for `locale`, for the parser to refuse any other. */
export function pluralCategories(locale: string): string[] {
  return [...new Intl.PluralRules(locale).resolvedOptions().pluralCategories];
}

export function parseMessage(source: string, locale?: string): Token[] {
  if (!locale) return parse(source, { strict: false });
  return parse(source, {
    cardinal: pluralCategories(locale) as Intl.LDMLPluralRule[],
    ordinal: new Intl.PluralRules(locale, { type: 'ordinal' }).resolvedOptions()
      .pluralCategories as Intl.LDMLPluralRule[],
  });
}

export function compileMessage(source: string, locale?: string): Message {
  return compileTokens(parseMessage(source, locale));
}

/** The arguments a message names, sorted: `{n}`, `{count, plural, …}` and those inside its cases. */
export function placeholders(source: string): string[] {
  const names = new Set<string>();
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument' || token.type === 'function') names.add(token.arg);
      if (token.type === 'plural' || token.type === 'selectordinal' || token.type === 'select') {
        names.add(token.arg);
        for (const c of token.cases) walk(c.tokens);
      }
    }
  };
  walk(parseMessage(source));
  return [...names].sort();
}

/** The plural and selectordinal tokens of a message, at any depth, with their case keys. */
export function pluralCases(source: string): { arg: string; type: 'plural' | 'selectordinal'; keys: string[] }[] {
  const found: { arg: string; type: 'plural' | 'selectordinal'; keys: string[] }[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'plural' || token.type === 'selectordinal')
        found.push({ arg: token.arg, type: token.type, keys: token.cases.map((c) => c.key) });
      if (token.type === 'plural' || token.type === 'selectordinal' || token.type === 'select')
        for (const c of token.cases) walk(c.tokens);
    }
  };
  walk(parseMessage(source));
  return found;
}
