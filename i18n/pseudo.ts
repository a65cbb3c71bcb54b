/**
 * The pseudo-locales, generated from en-GB's messages: nobody writes them. Only the text is
 * changed; the placeholders, the plural and select cases and the rich-text tags (`<a>…</a>`) stay
 * as they are, so each pseudo-message has the source's placeholders.
 *
 * - en-XA: every letter accented and every message about 40 % longer, in brackets, so text that
 *   did not come through the catalogue (no accents) and text cut short (no closing bracket) show.
 * - ar-XB: every word written right to left (a right-to-left override around it), for a page
 *   set `dir="rtl"`, so a layout that assumes left to right shows.
 */
import type { Token } from '@messageformat/parser';
import { parseMessage } from './compile.ts';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
    c,
    [...'áƀçđéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][i]!,
  ]),
);

/** Filler for the added length: accented words, so the padding too reads as translated. */
const FILLER = ['ŏñē', 'ţŵō', 'ţĥŕēē', 'ƒōũŕ', 'ƒīṽē', 'šīẋ', 'šēṽēñ', 'ēīğĥţ', 'ñīñē', 'ţēñ'];

/** A message's text, tag by tag: the text between tags is changed, the tags kept. */
function eachText(text: string, change: (s: string) => string): string {
  return text
    .split(/(<\/?[a-z][a-zA-Z0-9]*>)/)
    .map((piece, i) => (i % 2 === 1 ? piece : change(piece)))
    .join('');
}

function mapContent(tokens: Token[], change: (s: string) => string): string {
  return tokens
    .map((token) => {
      switch (token.type) {
        case 'content':
          return escapeIcu(eachText(token.value, change));
        case 'octothorpe':
          return '#';
        case 'argument':
          return `{${token.arg}}`;
        case 'function':
          return `{${token.arg}, ${token.key}}`;
        default: {
          const offset = token.type !== 'select' && token.pluralOffset ? ` offset:${token.pluralOffset}` : '';
          return `{${token.arg}, ${token.type},${offset} ${token.cases.map((c) => `${c.key} {${mapContent(c.tokens, change)}}`).join(' ')}}`;
        }
      }
    })
    .join('');
}

/** Text written back as ICU: an apostrophe doubled, braces and # quoted. */
function escapeIcu(text: string): string {
  return text.replace(/'/g, "''").replace(/[{}#]+/g, (m) => `'${m}'`);
}

function textLength(tokens: Token[]): number {
  let n = 0;
  for (const token of tokens) {
    if (token.type === 'content') n += token.value.replace(/<\/?[a-z][a-zA-Z0-9]*>/g, '').length;
    else if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal')
      n += Math.max(0, ...token.cases.map((c) => textLength(c.tokens)));
    else n += 2;
  }
  return n;
}

function filler(length: number): string {
  const words: string[] = [];
  let n = 0;
  for (let i = 0; n < length; i++) {
    const word = FILLER[i % FILLER.length]!;
    words.push(word);
    n += word.length + 1;
  }
  return words.join(' ');
}

export function accented(source: string): string {
  const tokens = parseMessage(source);
  if (tokens.length === 0) return source;
  const body = mapContent(tokens, (s) => s.replace(/[a-zA-Z]/g, (c) => ACCENTED[c] ?? c));
  // Brackets add two; the filler the rest of the 40 %.
  const extra = Math.max(0, Math.round(textLength(tokens) * 0.4) - 3);
  return `[${body}${extra > 0 ? ` ${filler(extra)}` : ''}]`;
}

const RLO = '\u202e';
const PDF = '\u202c';

export function mirrored(source: string): string {
  const tokens = parseMessage(source);
  return mapContent(tokens, (s) => s.replace(/[^\s]+/g, (word) => `${RLO}${word}${PDF}`));
}
