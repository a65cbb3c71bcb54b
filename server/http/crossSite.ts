/**
 * Refuses state-changing requests made by another site: the browser's Sec-Fetch-Site says so
 * directly; older browsers are judged by Origin. A request with neither header does not come
 * from a browser page and cannot ride on a visitor's cookies, so it passes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { inActiveLanguage } from '../../i18n/catalogues.ts';

export const CROSS_SITE_MESSAGE = 'This request came from another website and was refused.';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isCrossSite(request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string' && fetchSite !== '') {
    return fetchSite === 'cross-site' || fetchSite === 'same-site';
  }
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === '') return false;
  return origin !== `${request.protocol}://${request.host}`;
}

export async function refuseCrossSite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (SAFE_METHODS.has(request.method)) return;
  if (isCrossSite(request)) {
    await reply.status(403).send({ error: inActiveLanguage(CROSS_SITE_MESSAGE) });
  }
}
