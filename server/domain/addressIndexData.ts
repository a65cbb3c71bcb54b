/**
 * The local lookup's address list: a few hundred UK and US addresses, house numbers along real
 * streets with their postcodes or ZIP codes, so the finder can be used without an address API.
 */
import { COUNTRY_UK, COUNTRY_USA } from '../../contract/index.ts';

export interface IndexedAddress {
  line1: string;
  line2: string;
  town: string;
  postcode: string;
  country: string;
  state: string;
}

/** Street, locality (line 2), town, postcode; ten house numbers each. */
const UK_STREETS: Array<[string, string, string, string]> = [
  ['Quay Street', '', 'Bristol', 'BS1 4RN'],
  ['Canons Way', 'Harbourside', 'Bristol', 'BS1 5UH'],
  ['Park Street', '', 'Bristol', 'BS1 5NT'],
  ['Gloucester Road', 'Bishopston', 'Bristol', 'BS7 8AE'],
  ['North Street', 'Bedminster', 'Bristol', 'BS3 1HW'],
  ['Oldham Street', 'Northern Quarter', 'Manchester', 'M1 1JQ'],
  ['Thomas Street', 'Northern Quarter', 'Manchester', 'M4 1EU'],
  ['Deansgate', '', 'Manchester', 'M3 4LQ'],
  ['Wilmslow Road', 'Didsbury', 'Manchester', 'M20 6RQ'],
  ['Castle Street', '', 'Edinburgh', 'EH2 3AH'],
  ['Leith Walk', 'Leith', 'Edinburgh', 'EH6 5DT'],
  ['Bold Street', '', 'Liverpool', 'L1 4DJ'],
  ['Lark Lane', 'Aigburth', 'Liverpool', 'L17 8US'],
  ['High Street', 'Chipping Campden', 'Chipping Campden', 'GL55 6AT'],
  ['Sheep Street', '', 'Stow on the Wold', 'GL54 1AA'],
  ['Church Street', 'Hathersage', 'Hope Valley', 'S32 1BR'],
  ['Division Street', '', 'Sheffield', 'S1 4GF'],
  ['Upper Street', 'Islington', 'London', 'N1 0PQ'],
  ['Columbia Road', 'Bethnal Green', 'London', 'E2 7RG'],
  ['Cowley Road', '', 'Oxford', 'OX4 1HR'],
];

/** Street, town, state, ZIP code; ten house numbers each. */
const US_STREETS: Array<[string, string, string, string]> = [
  ['Valencia Street', 'San Francisco', 'CA', '94110'],
  ['Sunset Boulevard', 'Los Angeles', 'CA', '90026'],
  ['Bedford Avenue', 'Brooklyn', 'NY', '11211'],
  ['Broadway', 'New York', 'NY', '10012'],
  ['Newbury Street', 'Boston', 'MA', '02116'],
  ['South Congress Avenue', 'Austin', 'TX', '78704'],
  ['Frenchmen Street', 'New Orleans', 'LA', '70116'],
  ['Pike Street', 'Seattle', 'WA', '98101'],
  ['Milwaukee Avenue', 'Chicago', 'IL', '60622'],
  ['East Colfax Avenue', 'Denver', 'CO', '80206'],
];

const NUMBERS = [1, 2, 3, 5, 8, 12, 14, 21, 34, 55];

export function indexedAddresses(): IndexedAddress[] {
  const uk = UK_STREETS.flatMap(([street, line2, town, postcode]) =>
    NUMBERS.map((n) => ({ line1: `${n} ${street}`, line2, town, postcode, country: COUNTRY_UK, state: '' })),
  );
  const us = US_STREETS.flatMap(([street, town, state, zip]) =>
    NUMBERS.map((n) => ({
      line1: `${n * 10 + 100} ${street}`,
      line2: '',
      town,
      postcode: zip,
      country: COUNTRY_USA,
      state,
    })),
  );
  return [...uk, ...us];
}

/** What the index matches against: the address's words in lower case and the postcode without spaces. */
export function searchTextOf(a: IndexedAddress): string {
  return [a.line1, a.line2, a.town, a.state, a.postcode, a.postcode.replace(/\s+/g, '')].join(' ').toLowerCase();
}
