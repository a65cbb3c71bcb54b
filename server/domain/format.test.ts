import { afterEach, describe, expect, it } from 'vitest';
import { catalogueFor, installSourceCatalogue } from '../../i18n/catalogues.ts';
import { installCatalogue } from '../../i18n/runtime.ts';
import { formatMoney } from '../../contract/money.ts';
import { formatDeadline, formatEventDayAndTime, formatNiceDate, formatUkDate } from './format.ts';

const start = new Date('2027-01-16T17:30:00Z');
const summer = new Date('2027-07-16T17:30:00Z');

describe('dates, times and money in the buyer’s language, in the event’s time zone', () => {
  afterEach(() => installSourceCatalogue());

  it('writes them as the spec does in English', () => {
    expect(formatNiceDate(start)).toBe('Sat, 16 Jan 2027, 5:30 pm');
    expect(formatNiceDate(summer)).toBe('Fri, 16 Jul 2027, 6:30 pm');
    expect(formatEventDayAndTime(start)).toEqual({ date: 'Sat, 16 Jan 2027', time: '5:30 pm' });
    expect(formatDeadline(start)).toBe('Sat, 16 Jan 2027, 5:30 pm GMT');
    expect(formatMoney(123456, 'GBP')).toBe('£1,234.56');
  });

  it('writes them in Welsh for a Welsh buyer, the clock as Welsh writes it, still in UK time', () => {
    installCatalogue(catalogueFor('cy'));
    expect(formatNiceDate(start)).toBe('Sad, 16 Ion 2027, 17:30');
    expect(formatNiceDate(summer)).toBe('Gwen, 16 Gorff 2027, 18:30');
    expect(formatEventDayAndTime(start)).toEqual({ date: 'Sad, 16 Ion 2027', time: '17:30' });
    expect(formatUkDate(start)).toBe('16/01/2027');
    expect(formatMoney(123456, 'GBP')).toBe('£1,234.56');
  });

  it('writes the pseudo-locales’ dates as English does', () => {
    installCatalogue(catalogueFor('en-XA'));
    expect(formatNiceDate(start)).toBe('Sat, 16 Jan 2027, 5:30 pm');
  });
});
