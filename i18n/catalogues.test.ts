import { describe, expect, it } from 'vitest';
import { ALL_LOCALES, appCatalogue, catalogueFor, sources } from './catalogues.ts';
import { compileMessage, parseMessage, placeholders, pluralCases, pluralCategories } from './compile.ts';
import { negotiate, SOURCE_LOCALE } from './locales.ts';
import { accented, mirrored } from './pseudo.ts';
import { formatMessage } from './runtime.ts';

const source = sources(SOURCE_LOCALE);
const keys = Object.keys(source).sort();

describe.each(ALL_LOCALES)('the %s catalogue', (locale) => {
  const own = sources(locale);

  it('has every key of en-GB and no other', () => {
    expect(Object.keys(own).sort()).toEqual(keys);
  });

  it('compiles every message, with the same placeholders as en-GB', () => {
    const real = !locale.includes('-X');
    for (const key of keys) {
      expect(() => compileMessage(own[key]!, real ? locale : undefined), key).not.toThrow();
      expect(placeholders(own[key]!), key).toEqual(placeholders(source[key]!));
    }
  });

  it("gives every plural the locale's forms", () => {
    if (locale.includes('-X')) return;
    const categories = pluralCategories(locale).sort();
    for (const key of keys) {
      for (const plural of pluralCases(own[key]!).filter((p) => p.type === 'plural')) {
        expect(plural.keys.filter((k) => !k.startsWith('=')).sort(), `${key}: ${plural.arg}`).toEqual(categories);
      }
    }
  });

  it('keeps the rich-text tags of en-GB', () => {
    const tags = (s: string) => (s.match(/<\/?\w+>/g) ?? []).sort();
    for (const key of keys) expect(tags(own[key]!), key).toEqual(tags(source[key]!));
  });
});

describe('Welsh', () => {
  it('has six plural forms, chosen by Intl.PluralRules', () => {
    expect(pluralCategories('cy').sort()).toEqual(['few', 'many', 'one', 'other', 'two', 'zero']);
    const message = compileMessage(
      '{n, plural, zero {dim tocynnau} one {# tocyn} two {# docyn} few {# thocyn} many {# thocyn} other {# tocyn}}',
      'cy',
    );
    expect([0, 1, 2, 3, 6, 4].map((n) => formatMessage(message, { n }, 'cy'))).toEqual([
      'dim tocynnau',
      '1 tocyn',
      '2 docyn',
      '3 thocyn',
      '6 thocyn',
      '4 tocyn',
    ]);
  });
});

describe('the pseudo-locales', () => {
  it('accent every letter and lengthen each message by about 40 %, placeholders kept', () => {
    const message = 'You can only reserve {n} tickets of this type';
    const pseudo = accented(message);
    expect(pseudo).not.toMatch(/[a-zA-Z]{2}/);
    expect(pseudo).toContain('{n}');
    const shown = formatMessage(compileMessage(pseudo), { n: 4 }, 'en-GB');
    expect(shown.length / formatMessage(compileMessage(message), { n: 4 }, 'en-GB').length).toBeGreaterThan(1.3);
    expect(shown.length / formatMessage(compileMessage(message), { n: 4 }, 'en-GB').length).toBeLessThan(1.55);
  });

  it('keep plural cases, tags and quoted text', () => {
    const pseudo = accented("{count, plural, one {# item} other {# items}} <a>Sign in</a> '{'");
    expect(placeholders(pseudo)).toEqual(['count']);
    expect(pseudo).toContain('<a>');
    expect(pseudo).toContain('</a>');
    expect(() => parseMessage(pseudo)).not.toThrow();
  });

  it('mirror each word right to left', () => {
    expect(mirrored('Reserve Basket')).toBe('\u202eReserve\u202c \u202eBasket\u202c');
  });
});

describe('the runtime', () => {
  it('formats the source catalogue as written', () => {
    const { messages } = catalogueFor('en-GB');
    expect(formatMessage(messages['basket.maximumWarning']!, { n: 4 }, 'en-GB')).toBe(
      'You can only reserve 4 tickets of this type',
    );
    expect(formatMessage(messages['site.itemCount']!, { count: 1 }, 'en-GB')).toBe('1 item');
    expect(formatMessage(messages['site.itemCount']!, { count: 3 }, 'en-GB')).toBe('3 items');
  });

  it("gives the app's page only the app's messages", () => {
    const app = Object.keys(appCatalogue('cy').messages);
    expect(app).toContain('basket.reserve');
    expect(app.some((k) => /^(mail|page|sms)\./.test(k))).toBe(false);
  });
});

describe('Accept-Language', () => {
  it.each([
    ['cy', 'cy'],
    ['cy-GB,cy;q=0.9,en;q=0.8', 'cy'],
    ['en-US,en;q=0.9', 'en-GB'],
    ['fr-FR, cy;q=0.5, en;q=0.4', 'cy'],
    ['fr-FR', undefined],
    ['en;q=0.5, cy;q=0.9', 'cy'],
    ['', undefined],
  ])('%s gives %s', (header, locale) => {
    expect(negotiate(header)).toBe(locale);
  });
});
