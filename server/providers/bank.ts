/** The bank for instant bank transfer: TrueLayer when keyed, else the sandbox bank this server serves. */
import type { JsonWebKey } from 'node:crypto';
import type { BankSettings, Config } from '../config.ts';
import { sandboxBank, type BankProvider, type BankWebhook, type BankWebhookDelivery } from '../domain/payment/bank.ts';
import { truelayerBank, truelayerWebhookReader } from './truelayer.ts';

export interface BankWiring {
  settings: BankSettings;
  bank: BankProvider;
  /** Reads TrueLayer's webhook (signature against its published keys, age, event) when keyed; null: no webhook is served. */
  webhook: ((delivery: BankWebhookDelivery, now: Date) => Promise<BankWebhook>) | null;
}

/** TrueLayer's keys change rarely: they are read again after ten minutes. */
const JWKS_FRESH_MS = 10 * 60_000;

/** `fetchJwks` reads TrueLayer's published webhook keys (tests hand in their own); by default through `fetchImpl`, kept ten minutes. */
export function bankWiring(
  config: Pick<Config, 'bank'>,
  fetchImpl: typeof fetch = fetch,
  fetchJwks: (url: string) => Promise<{ keys: JsonWebKey[] }> = cachedJwks(fetchImpl),
): BankWiring {
  const settings = config.bank;
  return {
    settings,
    bank: settings.truelayer ? truelayerBank(settings.truelayer, fetchImpl) : sandboxBank(),
    webhook: settings.truelayer ? truelayerWebhookReader(settings.truelayer.environment, fetchJwks) : null,
  };
}

function cachedJwks(fetchImpl: typeof fetch): (url: string) => Promise<{ keys: JsonWebKey[] }> {
  let cached: { url: string; jwks: { keys: JsonWebKey[] }; at: number } | null = null;
  return async (url) => {
    if (cached && cached.url === url && Date.now() - cached.at < JWKS_FRESH_MS) return cached.jwks;
    const response = await fetchImpl(url);
    if (!response.ok) throw new Error(`JWKS ${response.status}`);
    const jwks = (await response.json()) as { keys: JsonWebKey[] };
    cached = { url, jwks, at: Date.now() };
    return jwks;
  };
}
