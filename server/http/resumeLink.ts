/**
 * The continue-your-order e-mail from a route: sent once the sale has its buyer (a code proved, a
 * guest saved, a signed-in buyer's reservation). Its failure is logged and never stops the checkout.
 */
import type { FastifyRequest } from 'fastify';
import { offerResumeLink } from '../domain/smartCheckout.ts';
import type { AppDeps } from './deps.ts';

export async function offerResumeLinkAfter(
  deps: AppDeps,
  request: FastifyRequest,
  saleId: string | null,
): Promise<void> {
  if (!saleId) return;
  const { db, config, mailer, clock } = deps;
  await offerResumeLink(
    db,
    { mailer, brandName: config.brandName, publicUrl: config.publicUrl, secret: config.sessionSecret },
    saleId,
    clock(),
  ).catch((err: unknown) => request.log.warn({ err }, 'continue-your-order e-mail not sent'));
}
