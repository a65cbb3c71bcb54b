/**
 * The smart-checkout link's page (server/domain/smartCheckout.ts says what the link proves). A
 * browser that is the sale's own, or signed in as its buyer, is given the sale and sent to the
 * checkout, which shows the step the sale is at; any other browser is asked to sign in as the
 * buyer first (the sign-in page, which comes back here), and a link that is not valid or has
 * expired is refused in words.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  parseSmartLink,
  SMART_LINK_MESSAGES,
  SMART_CHECKOUT_PATH,
  verifySmartLink,
} from '../../domain/smartCheckout.ts';
import type { AppDeps } from '../../http/deps.ts';
import { saleIdOf, setSaleCookie, userIdOf } from '../../http/session.ts';
import { html, type Html } from '../../views/html.ts';
import { sitePage } from '../../http/sitePage.ts';
import { t } from '../../../i18n/runtime.ts';
import { SIGN_IN_PATH } from './signin.ts';

export function registerSmartCheckout(app: FastifyInstance, deps: AppDeps): void {
  const { db, config, clock } = deps;

  const pageFor = sitePage(deps);
  async function show(request: FastifyRequest, reply: FastifyReply, status: number, body: Html) {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(await pageFor(request, t('page.smart.title'), html`<h1>${t('page.smart.title')}</h1>${body}`));
  }

  app.get(SMART_CHECKOUT_PATH, async (request, reply) => {
    const verdict = await verifySmartLink(db, config.sessionSecret, parseSmartLink(request.query), clock());
    if (verdict.kind === 'invalid') {
      return show(
        request,
        reply,
        404,
        html`<p class="notice error" role="alert">${SMART_LINK_MESSAGES.invalidLink}</p><p><a class="inline-link" href="/checkout/">${t('page.smart.goToBasket')}</a></p>`,
      );
    }
    if (verdict.kind === 'expired') {
      return show(
        request,
        reply,
        410,
        html`<p class="notice error" role="alert">${SMART_LINK_MESSAGES.expiredLink}</p><p><a class="inline-link" href="/checkout/">${t('page.smart.goToBasket')}</a></p>`,
      );
    }
    const { sale } = verdict;
    const userId = userIdOf(request);
    if (saleIdOf(request) === sale.id || userId === sale.userId) {
      setSaleCookie(request, reply, sale.id);
      return reply.header('cache-control', 'no-store').redirect('/checkout/', 303);
    }
    if (userId !== null) {
      return show(
        request,
        reply,
        403,
        html`<p class="notice error" role="alert">${SMART_LINK_MESSAGES.otherBuyer}</p>
        <form method="post" action="/signout/"><button class="button button--secondary" type="submit">${t('page.signOut.button')}</button></form>`,
      );
    }
    const back = request.url;
    return show(
      request,
      reply,
      200,
      html`<p>${t('page.smart.order', { reference: sale.reference })}</p><p>${SMART_LINK_MESSAGES.proveBuyer}</p>
      <p><a class="button" href="${`${SIGN_IN_PATH}?next=${encodeURIComponent(back)}`}">${t('page.smart.signIn')}</a></p>`,
    );
  });
}
