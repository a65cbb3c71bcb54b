/**
 * Sending a one-time code from a request: the checkout's login step, the sign-in page and a
 * waiting-list offer all send it the same way, with the site's brand, mailer and the limits per
 * address and per client address.
 */
import type { FastifyRequest } from 'fastify';
import { sendSignInCode } from '../domain/account.ts';
import { SEND_LIMITS } from '../domain/oneTimeCode.ts';
import type { AppDeps } from './deps.ts';

export function sendCodeFrom(
  deps: Pick<AppDeps, 'db' | 'config' | 'clock' | 'mailer'>,
  request: FastifyRequest,
  email: string,
): Promise<void> {
  const { db, config, clock, mailer } = deps;
  return sendSignInCode(db, {
    email,
    ip: request.ip,
    now: clock(),
    secret: config.sessionSecret,
    mailer,
    brandName: config.brandName,
    limits: { ...SEND_LIMITS, perIp: config.codeSendsPerAddress },
  });
}
