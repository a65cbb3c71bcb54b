import { describe, expect, it } from 'vitest';
import { catalogueFor, installSourceCatalogue } from '../i18n/catalogues.ts';
import { installCatalogue } from '../i18n/runtime.ts';
import { untranslated } from '../i18n/untranslated.ts';
import { checkSeatChange, checkSeatToggle, type RuleSeat } from './seatRules';

/**
 * A row drawn as text: `.` free, `x` taken by another buyer, `u` unpriced, `m` mine, `_` an aisle
 * (a gap in positions). Seats are numbered 1, 2, … from the left, aisles skipped; ids are
 * row index * 100 + seat number.
 */
function row(drawing: string, name = 'A', rowIndex = 1): { seats: RuleSeat[]; mine: Set<number> } {
  const seats: RuleSeat[] = [];
  const mine = new Set<number>();
  let number = 0;
  [...drawing].forEach((c, position) => {
    if (c === '_') return;
    number += 1;
    const id = rowIndex * 100 + number;
    seats.push({
      id,
      section: 'Stalls',
      row: name,
      number: String(number),
      position,
      priced: c !== 'u',
      taken: c === 'x',
    });
    if (c === 'm') mine.add(id);
  });
  return { seats, mine };
}

/** Picks (or gives back) the seats numbered `numbers` of a row drawing, and answers the refused rule. */
function pick(drawing: string, ...numbers: number[]) {
  const { seats, mine } = row(drawing);
  const after = new Set(mine);
  for (const n of numbers) {
    const id = 100 + n;
    if (after.has(id)) after.delete(id);
    else after.add(id);
  }
  return checkSeatChange(seats, mine, after);
}

describe('seats without pricing', () => {
  it('cannot be chosen, and the refusal names the seat in words', () => {
    expect(pick('..u..', 3)).toEqual({
      rule: 'unpriced',
      seatIds: [103],
      message: 'Stalls, row A, seat 3 has no price yet, so it cannot be chosen.',
    });
  });
  it('block a row like a taken seat: a free seat between one and a selected seat is an orphan', () => {
    expect(pick('u....', 3)?.rule).toBe('orphan');
    expect(pick('u....', 2)).toBeNull();
  });
});

describe('taken seats', () => {
  it('cannot be chosen', () => {
    expect(pick('..x..', 3)).toMatchObject({
      rule: 'taken',
      message: 'Stalls, row A, seat 3 is taken by another buyer.',
    });
  });
  it('a seat unknown to the plan is refused', () => {
    const { seats } = row('...');
    expect(checkSeatChange(seats, new Set(), new Set([999]))?.rule).toBe('taken');
  });
});

describe('no orphan seats', () => {
  it('refuses the second seat of a row, which leaves the first alone at the row end', () => {
    expect(pick('......', 2)).toMatchObject({
      rule: 'orphan',
      seatIds: [101],
      message: 'That would leave Stalls, row A, seat 1 empty on its own. Choose seats that leave no single empty seat.',
    });
  });
  it('accepts the first seat of a row, or a seat with two free seats on each side', () => {
    expect(pick('......', 1)).toBeNull();
    expect(pick('......', 6)).toBeNull();
    expect(pick('.......', 4)).toBeNull();
  });
  it('refuses the last-but-one seat at the far row end', () => {
    expect(pick('......', 5)?.seatIds).toEqual([106]);
  });
  it('refuses a seat that leaves one free seat between it and a taken seat', () => {
    expect(pick('x.....', 3)).toMatchObject({ rule: 'orphan', seatIds: [102] });
    expect(pick('x.....', 4)).toBeNull();
  });
  it('refuses a seat that leaves one free seat between it and the buyer’s own seats', () => {
    expect(pick('m.....', 3)).toMatchObject({ rule: 'consecutive' });
    expect(pick('.m....', 4)?.rule).toBe('consecutive');
  });
  it('accepts filling the last free seat of a gap', () => {
    expect(pick('x.x', 2)).toBeNull();
    expect(pick('mm.x', 3)).toBeNull();
  });
  it('accepts two seats that fill a gap of two exactly', () => {
    expect(pick('x..x', 2, 3)).toBeNull();
  });
  it('refuses two seats that leave one of a gap of three', () => {
    expect(pick('x...x', 2, 3)).toMatchObject({ rule: 'orphan', seatIds: [104] });
    expect(pick('x...x', 3, 4)).toMatchObject({ rule: 'orphan', seatIds: [102] });
    expect(pick('x...x', 2, 3, 4)).toBeNull();
  });
  it('treats an aisle as a row end on each side', () => {
    // Seats 3 and 4 are either side of the aisle: choosing 2 leaves 3 alone at the aisle.
    expect(pick('...._....', 3)).toMatchObject({ rule: 'orphan', seatIds: [104] });
    expect(pick('...._....', 4)).toBeNull();
    expect(pick('...._....', 5)).toBeNull();
    expect(pick('...._....', 6)).toMatchObject({ rule: 'orphan', seatIds: [105] });
  });
  it('does not blame the buyer for a single seat other buyers left', () => {
    expect(pick('.x......', 3)).toBeNull();
    expect(pick('.x......', 4)?.rule).toBe('orphan');
    expect(pick('.x.x....', 5)).toBeNull();
  });
  it('refuses giving back a seat that would be left alone between the buyer’s seats or at the row end', () => {
    expect(pick('mmx..', 1)).toMatchObject({ rule: 'orphan', seatIds: [101] });
    expect(pick('mmx..', 2)).toMatchObject({ rule: 'orphan', seatIds: [102] });
    expect(pick('mmx..', 1, 2)).toBeNull();
  });
  it('checks each row it touches, several seats at once', () => {
    const a = row('......', 'A', 1);
    const b = row('......', 'B', 2);
    const seats = [...a.seats, ...b.seats];
    expect(checkSeatChange(seats, new Set(), new Set([101, 102, 201, 202]))).toBeNull();
    expect(checkSeatChange(seats, new Set(), new Set([101, 102, 202, 203]))).toMatchObject({
      rule: 'orphan',
      seatIds: [201],
    });
  });
});

describe('consecutive seats within a row', () => {
  it('refuses a gap between the buyer’s seats in one row', () => {
    expect(pick('mm....', 4)).toMatchObject({
      rule: 'consecutive',
      seatIds: [101, 102, 104],
      message: 'Your seats in Stalls, row A must be next to each other, with no gap between them.',
    });
  });
  it('accepts the next seat along', () => {
    expect(pick('mm....', 3)).toBeNull();
  });
  it('refuses seats either side of a taken seat, or across an aisle', () => {
    expect(pick('..x..', 1, 2, 4, 5)?.rule).toBe('consecutive');
    expect(pick('.._..', 1, 2, 3, 4)?.rule).toBe('consecutive');
  });
  it('refuses giving back a middle seat', () => {
    expect(pick('mmm..', 2)?.rule).toBe('consecutive');
    expect(pick('mmm..', 3)).toBeNull();
  });
  it('allows seats in different rows', () => {
    const a = row('mm....', 'A', 1);
    const b = row('......', 'B', 2);
    expect(checkSeatChange([...a.seats, ...b.seats], a.mine, new Set([...a.mine, 201, 202]))).toBeNull();
  });
});

describe('checkSeatToggle', () => {
  it('chooses an unselected seat and gives back a selected one', () => {
    const { seats, mine } = row('mm....');
    expect(checkSeatToggle(seats, mine, 103)).toBeNull();
    expect(checkSeatToggle(seats, mine, 104)?.rule).toBe('consecutive');
    expect(checkSeatToggle(seats, mine, 102)).toBeNull();
    expect(checkSeatToggle(seats, mine, 101)?.rule).toBe('orphan');
  });
});

describe('a refusal’s words', () => {
  /** The refusals of each rule, written with the catalogue of `locale` installed as the page's. */
  function refusalsIn(locale: 'en-XA' | 'cy'): string[] {
    installCatalogue(catalogueFor(locale));
    try {
      const { seats } = row('..x..');
      return [
        checkSeatChange(seats, new Set(), new Set([999]))!.message,
        pick('..u..', 3)!.message,
        pick('..x..', 3)!.message,
        pick('mm....', 4)!.message,
        pick('......', 2)!.message,
      ];
    } finally {
      installSourceCatalogue();
    }
  }

  it('come through the catalogue: in the accented pseudo-locale every word but the seat’s data is accented', () => {
    const isData = (text: string) => !/[A-Za-z]/.test(text.replace(/\bStalls\b|\bA\b/g, ''));
    const found = refusalsIn('en-XA');
    expect(found).toHaveLength(5);
    expect(found.filter((text) => untranslated(text.replace(/\bStalls\b/g, ''), isData))).toEqual([]);
  });

  it('are in Welsh on a Welsh page, the seat named in Welsh', () => {
    expect(refusalsIn('cy')).toEqual([
      "Nid yw'r sedd honno ar y cynllun seddi hwn.",
      'Does dim pris ar Stalls, rhes A, sedd 3 eto, felly does dim modd ei dewis.',
      "Mae Stalls, rhes A, sedd 3 wedi'i chymryd gan brynwr arall.",
      "Rhaid i'ch seddi yn Stalls, rhes A fod nesaf at ei gilydd, heb fwlch rhyngddynt.",
      "Byddai hynny'n gadael Stalls, rhes A, sedd 1 yn wag ar ei phen ei hun. Dewiswch seddi nad ydynt yn gadael un sedd wag ar ei phen ei hun.",
    ]);
  });
});
