/**
 * Signing out of every browser at once (from the wallet): every session of the buyer ends, so
 * another device is signed out at its next request, and this browser carries on anonymous.
 */
import type { FastifyInstance } from 'fastify';
import { signOutEverywhere } from '../../http/session.ts';
import type { AppDeps } from '../../http/deps.ts';
import { html } from '../../views/html.ts';
import { sitePage } from '../../http/sitePage.ts';
import { t } from '../../../i18n/runtime.ts';

export const SIGN_OUT_EVERYWHERE_PATH = '/signout/everywhere/';

export function registerSignOutEverywhere(app: FastifyInstance, deps: AppDeps): void {
  const pageFor = sitePage(deps);
  // A change of state, so a POST, checked for same-site origin like every change.
  app.post(SIGN_OUT_EVERYWHERE_PATH, async (request, reply) => {
    await signOutEverywhere(request, reply);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return pageFor(
      request,
      t('page.signedOut.title'),
      html`<h1>${t('page.signedOut.title')}</h1><p class="notice" role="status">${t('page.signedOut.everywhere')}</p><p><a class="inline-link" href="/all-events/">${t('page.seeAllEvents')}</a></p>`,
    );
  });
}
