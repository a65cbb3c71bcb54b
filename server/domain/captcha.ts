/**
 * When a reservation needs a captcha, and how a solved one is checked.
 *
 * The rule: CAPTCHA=always asks every reservation for one and CAPTCHA=never none. CAPTCHA=auto
 * (the default) asks once an address has already made 3 reservation attempts in the last
 * 10 minutes, which lets a buyer retry a couple of times but slows down a script hammering
 * the stock. Every attempt is recorded in `reservation_attempts`.
 *
 * Providers: hCaptcha (siteverify) when HCAPTCHA_SITEKEY and HCAPTCHA_SECRET are set, otherwise
 * the self-hosted ALTCHA proof of work, whose solved challenges are accepted once each.
 */
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import type { Database } from '../db/index.ts';
import type { ReserveAttempt } from './stock.ts';
import { usedCaptchas } from '../db/schema.ts';
import { LOCAL_CAPTCHA_SITEKEY } from '../../contract/index.ts';

export const CAPTCHA_WINDOW_MS = 10 * 60_000;
export const CAPTCHA_FREE_ATTEMPTS = 3;
const CHALLENGE_LIFETIME_MS = 10 * 60_000;

export type CaptchaMode = 'auto' | 'always' | 'never';

export interface CaptchaProvider {
  sitekey: string;
  /** True when the token proves a solved, unused challenge. */
  verify(token: string, remoteIp: string): Promise<boolean>;
}

/**
 * A buyer's reservation attempt as the rule counts it (null: no captcha): the reservation records
 * it and counts the address's attempts before it in its own round trip and commit
 * (`reserve_attempt`, server/db/functions/reserve_attempt.sql).
 */
export function captchaAttempt(mode: CaptchaMode, ip: string, now: Date, solved: boolean): ReserveAttempt['captcha'] {
  if (mode === 'never') return null;
  return {
    ip,
    since: new Date(now.getTime() - CAPTCHA_WINDOW_MS),
    free: mode === 'always' ? 0 : CAPTCHA_FREE_ATTEMPTS,
    solved,
  };
}

/** `maxNumber` sets the work: a browser does it in well under a second, a script must redo it for every hold. */
export function localCaptcha(
  db: Database,
  hmacKey: string,
  maxNumber: number,
): CaptchaProvider & { challenge(): Promise<object> } {
  return {
    sitekey: LOCAL_CAPTCHA_SITEKEY,
    challenge: () => createChallenge({ hmacKey, maxNumber, expires: new Date(Date.now() + CHALLENGE_LIFETIME_MS) }),
    async verify(token) {
      let payload: { signature?: unknown; salt?: unknown };
      try {
        payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as typeof payload;
      } catch {
        return false;
      }
      if (typeof payload.signature !== 'string' || typeof payload.salt !== 'string') return false;
      if (!(await verifySolution(token, hmacKey, true).catch(() => false))) return false;
      // The signature is unique per challenge: inserting it once is what makes the token single use.
      const used = await db
        .insert(usedCaptchas)
        .values({ token: payload.signature, expiresAt: new Date(Date.now() + CHALLENGE_LIFETIME_MS) })
        .onConflictDoNothing()
        .returning({ token: usedCaptchas.token });
      return used.length === 1;
    },
  };
}

export const HCAPTCHA_VERIFY_URL = 'https://api.hcaptcha.com/siteverify';

/** `apiBase`: hCaptcha's API (https://api.hcaptcha.com), or a local stand-in that answers siteverify the same way. */
export function hcaptcha(
  keys: { sitekey: string; secret: string; apiBase?: string },
  fetchImpl: typeof fetch = fetch,
): CaptchaProvider {
  const verifyUrl = keys.apiBase ? `${keys.apiBase}/siteverify` : HCAPTCHA_VERIFY_URL;
  return {
    sitekey: keys.sitekey,
    async verify(token, remoteIp) {
      const body = new URLSearchParams({
        secret: keys.secret,
        response: token,
        sitekey: keys.sitekey,
        remoteip: remoteIp,
      });
      try {
        const res = await fetchImpl(verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: body.toString(),
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) return false;
        const data = (await res.json()) as { success?: unknown };
        return data.success === true;
      } catch {
        return false;
      }
    },
  };
}
