/**
 * The address finder behind lookup_address: a UK address API (getAddress.io's autocomplete, then
 * each suggestion's full address) when ADDRESS_API_KEY is set, otherwise the local index of
 * seeded UK and US addresses, searched by postcode or words. Any failure yields an empty list,
 * as the spec says (spec 000 §8).
 */
import { sql } from 'drizzle-orm';
import { COUNTRY_UK, type PossibleAddress } from '../../contract/index.ts';
import type { Database } from '../db/index.ts';
import { addressIndex } from '../db/schema.ts';

export interface AddressFinder {
  find(query: string): Promise<PossibleAddress[]>;
}

/** At most this many possible addresses are offered. */
export const MAX_POSSIBLE_ADDRESSES = 20;

export function formatAddress(parts: Array<string | undefined>): string {
  return parts
    .map((p) => (p ?? '').trim())
    .filter(Boolean)
    .join(', ');
}

const likeEscaped = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The seeded index: every typed word (or the postcode without spaces) must appear in the address. */
export function localAddressFinder(db: Database): AddressFinder {
  return {
    async find(query) {
      const words = query
        .toLowerCase()
        .split(/[\s,]+/)
        .filter(Boolean)
        .slice(0, 8);
      if (!words.length) return [];
      const conditions = words.map((w) => sql`${addressIndex.search} LIKE ${`%${likeEscaped(w)}%`}`);
      const found = await db
        .select()
        .from(addressIndex)
        .where(sql.join(conditions, sql` AND `))
        .orderBy(addressIndex.id)
        .limit(MAX_POSSIBLE_ADDRESSES);
      return found.map((a) => ({
        address_line_1: a.line1,
        address_line_2: a.line2,
        town: a.town,
        post_code: a.postcode,
        country: a.country,
        state: a.state,
        formatted_address: formatAddress([a.line1, a.line2, a.town, a.state, a.postcode]),
      }));
    },
  };
}

interface Suggestion {
  id: string;
}
interface FullAddress {
  postcode?: string;
  line_1?: string;
  line_2?: string;
  line_3?: string;
  town_or_city?: string;
  formatted_address?: string[];
}

/** getAddress.io: suggestions for the typed text, then the full address of each. */
export function getAddressFinder(
  apiKey: string,
  fetchImpl: typeof fetch = fetch,
  baseUrl = 'https://api.getaddress.io',
): AddressFinder {
  const key = encodeURIComponent(apiKey);
  async function json<T>(path: string): Promise<T> {
    const res = await fetchImpl(`${baseUrl}${path}${path.includes('?') ? '&' : '?'}api-key=${key}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) throw new Error(`address API answered ${res.status}`);
    return (await res.json()) as T;
  }
  return {
    async find(query) {
      const term = encodeURIComponent(query.trim());
      const { suggestions } = await json<{ suggestions?: Suggestion[] }>(`/autocomplete/${term}?all=true`);
      const ids = (suggestions ?? []).slice(0, MAX_POSSIBLE_ADDRESSES).map((s) => s.id);
      const full = await Promise.all(ids.map((id) => json<FullAddress>(`/get/${encodeURIComponent(id)}`)));
      return full.map((a) => {
        const line2 = formatAddress([a.line_2, a.line_3]);
        return {
          address_line_1: a.line_1 ?? '',
          address_line_2: line2,
          town: a.town_or_city ?? '',
          post_code: a.postcode ?? '',
          country: COUNTRY_UK,
          state: '',
          formatted_address: formatAddress([a.line_1, line2, a.town_or_city, a.postcode]),
        };
      });
    },
  };
}

/** A finder whose failures are an empty list. */
export function forgiving(finder: AddressFinder, onError: (err: unknown) => void = () => {}): AddressFinder {
  return {
    async find(query) {
      try {
        return await finder.find(query);
      } catch (err) {
        onError(err);
        return [];
      }
    },
  };
}
