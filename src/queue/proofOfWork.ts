/**
 * Solves the local captcha's proof of work (ALTCHA's challenge: the number whose SHA-256 of
 * salt + number is the challenge) with the browser's own crypto, in batches so the digests run
 * side by side, and answers the payload the server checks.
 */
export interface Challenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber?: number;
}

const BATCH = 500;

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function solve(c: Challenge): Promise<string> {
  const max = c.maxnumber ?? 1_000_000;
  const encoder = new TextEncoder();
  const started = performance.now();
  for (let from = 0; from <= max; from += BATCH) {
    const numbers = Array.from({ length: Math.min(BATCH, max - from + 1) }, (_, i) => from + i);
    const digests = await Promise.all(numbers.map((n) => crypto.subtle.digest('SHA-256', encoder.encode(c.salt + n))));
    const found = digests.findIndex((d) => hex(d) === c.challenge);
    if (found >= 0) {
      const payload = { algorithm: c.algorithm, challenge: c.challenge, number: numbers[found], salt: c.salt, signature: c.signature, took: Math.round(performance.now() - started) };
      return btoa(JSON.stringify(payload));
    }
  }
  throw new Error('The browser check could not be solved');
}
