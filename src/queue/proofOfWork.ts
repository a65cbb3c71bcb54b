/**
 * Solves the local captcha's proof of work (ALTCHA's challenge: the number whose SHA-256 of
 * salt + number is the challenge) with the browser's own crypto, in batches so the digests run
 * side by side, comparing bytes (no text per digest), and answers the payload the server checks.
 * The page runs it in a worker (proofOfWork.worker.ts), so the main thread stays free.
 */
export interface Challenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber?: number;
}

const BATCH = 1000;

function bytesOf(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function same(digest: ArrayBuffer, wanted: Uint8Array): boolean {
  const got = new Uint8Array(digest);
  if (got.length !== wanted.length) return false;
  for (let i = 0; i < got.length; i++) if (got[i] !== wanted[i]) return false;
  return true;
}

export async function solve(c: Challenge): Promise<string> {
  const max = c.maxnumber ?? 1_000_000;
  const wanted = bytesOf(c.challenge);
  const encoder = new TextEncoder();
  const started = performance.now();
  for (let from = 0; from <= max; from += BATCH) {
    const count = Math.min(BATCH, max - from + 1);
    const digests = await Promise.all(
      Array.from({ length: count }, (_, i) => crypto.subtle.digest('SHA-256', encoder.encode(c.salt + (from + i)))),
    );
    const found = digests.findIndex((d) => same(d, wanted));
    if (found >= 0) {
      const payload = {
        algorithm: c.algorithm,
        challenge: c.challenge,
        number: from + found,
        salt: c.salt,
        signature: c.signature,
        took: Math.round(performance.now() - started),
      };
      return btoa(JSON.stringify(payload));
    }
  }
  throw new Error('The browser check could not be solved');
}

/** Solves in a worker where the browser has them, else here. */
export function solveAside(c: Challenge): Promise<string> {
  if (typeof Worker === 'undefined') return solve(c);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./proofOfWork.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<{ payload?: string; error?: string }>) => {
      worker.terminate();
      if (event.data.payload) resolve(event.data.payload);
      else reject(new Error(event.data.error ?? 'The browser check could not be solved'));
    };
    worker.onerror = () => {
      worker.terminate();
      solve(c).then(resolve, reject);
    };
    worker.postMessage(c);
  });
}
