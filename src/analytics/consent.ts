/**
 * The buyer's answer to the analytics cookie question, kept in a first-party cookie for six
 * months. Nothing of Google's or Meta's loads until it is 'granted' (spec 001 §4).
 */
export const CONSENT_COOKIE = 'analytics_consent';
export type Consent = 'granted' | 'denied';
const SIX_MONTHS_S = 183 * 24 * 60 * 60;

const listeners = new Set<(consent: Consent) => void>();

export function readConsent(doc: Document = document): Consent | null {
  const value = doc.cookie
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([name]) => name === CONSENT_COOKIE)?.[1];
  return value === 'granted' || value === 'denied' ? value : null;
}

export function saveConsent(consent: Consent, doc: Document = document): void {
  const secure = doc.location?.protocol === 'https:' ? '; Secure' : '';
  doc.cookie = `${CONSENT_COOKIE}=${consent}; Max-Age=${SIX_MONTHS_S}; Path=/; SameSite=Lax${secure}`;
  for (const listener of listeners) listener(consent);
}

export function onConsent(listener: (consent: Consent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
