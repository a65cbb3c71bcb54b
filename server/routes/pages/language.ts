/**
 * The footer's language picker: POST /language/ keeps the buyer's choice (a cookie, and their
 * account when signed in) and sends them back to the page they were on.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../http/deps.ts';
import { acceptableLocale, chooseLanguage } from '../../http/locale.ts';

const form = z.object({ language: z.string().max(16), back: z.string().max(2000).optional() });

/** Back to a path of this site only: never to another origin. */
function backPath(back: string | undefined, referer: string | undefined): string {
  for (const candidate of [back, referer]) {
    if (!candidate) continue;
    try {
      const url = new URL(candidate, 'http://site.invalid');
      if (url.origin === 'http://site.invalid' || (referer && candidate === referer)) {
        const path = `${url.pathname}${url.search}`;
        if (path.startsWith('/') && !path.startsWith('//')) return path;
      }
    } catch {
      // Not an address: the next, or the events.
    }
  }
  return '/all-events/';
}

export function registerLanguage(app: FastifyInstance, { db, config }: AppDeps): void {
  app.post('/language/', async (request, reply) => {
    const parsed = form.safeParse(request.body);
    const locale = parsed.success ? acceptableLocale(parsed.data.language, config.demo) : undefined;
    if (!parsed.success || !locale) return reply.status(400).type('text/plain; charset=utf-8').send('Unknown language');
    await chooseLanguage(request, reply, db, locale);
    return reply.redirect(backPath(parsed.data.back, request.headers.referer), 303);
  });
}
