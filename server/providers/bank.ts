/** The bank for instant bank transfer: TrueLayer when keyed, else the sandbox bank this server serves. */
import type { JsonWebKey } from 'node:crypto';
import type { Config } from '../config.ts';
import { sandboxBank, type BankProvider } from '../domain/payment/bank.ts';
import { truelayerBank, type BankSettings } from '../domain/payment/truelayer.ts';

export interface BankWiring {
  settings: BankSettings;
  bank: BankProvider;
  /** TrueLayer's published webhook keys (injected in tests). */
  fetchJwks: (url: string) => Promise<{ keys: JsonWebKey[] }>;
}

/** TrueLayer's keys change rarely: they are read again after ten minutes. */
const JWKS_FRESH_MS = 10 * 60_000;

export function bankWiring(config: Pick<Config, 'bank'>, fetchImpl: typeof fetch = fetch): BankWiring {
  const settings = config.bank;
  let cached: { url: string; jwks: { keys: JsonWebKey[] }; at: number } | null = null;
  return {
    settings,
    bank: settings.truelayer ? truelayerBank(settings.truelayer, fetchImpl) : sandboxBank(),
    fetchJwks: async (url) => {
      if (cached && cached.url === url && Date.now() - cached.at < JWKS_FRESH_MS) return cached.jwks;
      const response = await fetchImpl(url);
      if (!response.ok) throw new Error(`JWKS ${response.status}`);
      const jwks = (await response.json()) as { keys: JsonWebKey[] };
      cached = { url, jwks, at: Date.now() };
      return jwks;
    },
  };
}
