/**
 * The waiver link's page (spec 001 §2 routes: `/activity-terms-and-conditions/{sale_reference}/`):
 * the activity terms and conditions of the sale's events, with the site's header and footer.
 *
 * The buyer passes the link on (copy or share on the waiver step), for example to a friend in
 * their group who takes part, so it needs no session: anyone with the link reads it. It shows only
 * what the organisers wrote for the events (server/domain/waivers.ts), nothing about the buyer or
 * the order. A reference that names no sale with terms gets a plain 404 page.
 */
import type { FastifyInstance } from 'fastify';
import { WAIVER_PATH_PREFIX } from '../../../contract/index.ts';
import { WAIVER_MESSAGES } from '../../../contract/messages/waiver.ts';
import { waiversOfSale } from '../../domain/waivers.ts';
import type { AppDeps } from '../../http/deps.ts';
import { html } from '../../views/html.ts';
import { sitePage } from '../../http/sitePage.ts';

const TITLE = 'Activity terms and conditions';

/** The organiser's text as paragraphs: a blank line starts a new one, a line break stays one. */
function paragraphs(text: string) {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => html`<p>${p.split('\n').map((line, i) => (i === 0 ? html`${line}` : html`<br>${line}`))}</p>`);
}

export function registerWaiverPage(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;
  const pageFor = sitePage(deps);
  // A wildcard, not a `:reference` parameter: a path too long for a parameter still gets this
  // route's 404 page rather than the API's.
  app.get<{ Params: { '*': string } }>(`${WAIVER_PATH_PREFIX}*`, async (request, reply) => {
    // The terms can change, and a reference should not linger in shared caches.
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const reference = /^([^/]+)\/?$/.exec(request.params['*'])?.[1];
    const waivers = reference === undefined ? null : await waiversOfSale(db, reference);
    if (!waivers) {
      return reply.status(404).send(
        await pageFor(
          request,
          'Not found',
          html`<h1>${TITLE}</h1><p class="notice error" role="alert">${WAIVER_MESSAGES.notFound}</p>
        <p><a class="inline-link" href="/all-events/">See all events</a></p>`,
        ),
      );
    }
    return pageFor(
      request,
      TITLE,
      html`<div class="prose waiver"><h1>${TITLE}</h1>
      <p class="muted">Everyone taking part must read and accept these terms, set by the organiser of each activity.</p>
      ${waivers.map(
        (w) => html`<section class="waiver__event" aria-labelledby="waiver-${w.eventId}">
          <h2 id="waiver-${w.eventId}">${w.title}</h2>
          <p class="muted">Terms set by ${w.organiser}</p>
          ${paragraphs(w.text)}
        </section>`,
      )}</div>`,
    );
  });
}
