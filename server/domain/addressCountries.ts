/**
 * The countries and US states the address form offers, owned by the server (spec 000 §3: "Lists
 * of countries and states come from the server"). Countries are the ISO 3166-1 list with their
 * English short names; ids are the spec's: '1' the UK, '2' the USA, the rest in name order.
 * States are the USA's, ISO 3166-2:US, keyed by their postal code.
 */
import { COUNTRY_UK, COUNTRY_USA, type Country, type CountryState } from '../../contract/index.ts';

const ISO_3166_1 =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'.split(
    ' ',
  );

const US_STATES: Array<[string, string]> = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
];

function buildCountries(): Country[] {
  const names = new Intl.DisplayNames(['en-GB'], { type: 'region' });
  const named = ISO_3166_1.map((iso) => ({ iso, name: names.of(iso) ?? iso }));
  const rest = named
    .filter((c) => c.iso !== 'GB' && c.iso !== 'US')
    .sort((a, b) => a.name.localeCompare(b.name, 'en-GB'));
  return [
    { id: COUNTRY_UK, name: names.of('GB') ?? 'United Kingdom', iso_code: 'GB' },
    { id: COUNTRY_USA, name: names.of('US') ?? 'United States', iso_code: 'US' },
    ...rest.map((c, i) => ({ id: String(i + 3), name: c.name, iso_code: c.iso })),
  ];
}

export const COUNTRIES: readonly Country[] = buildCountries();
export const STATES: readonly CountryState[] = US_STATES.map(([code, name]) => ({
  id: code,
  name,
  country: COUNTRY_USA,
}));

const countryIds = new Set(COUNTRIES.map((c) => c.id));
const stateIds = new Set(STATES.map((s) => s.id));

export const isCountry = (id: string) => countryIds.has(id);
export const isState = (id: string) => stateIds.has(id);
export const countryName = (id: string) => COUNTRIES.find((c) => c.id === id)?.name ?? '';

/** The ISO 3166-1 code of a country id ('GB' for '1'), or '' for none we offer. */
export const isoOfCountry = (id: string) => COUNTRIES.find((c) => c.id === id)?.iso_code ?? '';
/** The country id of an ISO 3166-1 code ('1' for 'GB'), or '' for none we offer. */
export const countryOfIso = (iso: string) => COUNTRIES.find((c) => c.iso_code === iso.toUpperCase())?.id ?? '';
