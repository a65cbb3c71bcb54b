/**
 * The smart-checkout link's page (server/domain/smartCheckout.ts says what the link proves). A
 * browser that is the sale's own, or signed in as its buyer, is given the sale and sent to the
 * checkout, which shows the step the sale is at; any other browser is asked to sign in as the
 * buyer first (the sign-in page, which comes back here), and a link that is not valid or has
 * expired is refused in words.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EXPIRED_LINK_MESSAGE, INVALID_LINK_MESSAGE, OTHER_BUYER_MESSAGE, PROVE_BUYER_MESSAGE, parseSmartLink, SMART_CHECKOUT_PATH, verifySmartLink } from '../../domain/smartCheckout.ts';
import type { AppDeps } from '../../http/deps.ts';
import { saleIdOf, setSaleCookie, userIdOf } from '../../http/session.ts';
import { html, type Html } from '../../views/html.ts';
import { sitePage } from '../../http/sitePage.ts';
import { SIGN_IN_PATH } from './signin.ts';

export function registerSmartCheckout(app: FastifyInstance, deps: AppDeps): void {
  const { db, config, clock } = deps;

  const pageFor = sitePage(deps);
  async function show(request: FastifyRequest, reply: FastifyReply, status: number, body: Html) {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return reply.status(status).type('text/html; charset=utf-8').send(await pageFor(request, 'Continue your order', html`<h1>Continue your order</h1>${body}`));
  }

  app.get(SMART_CHECKOUT_PATH, async (request, reply) => {
    const verdict = await verifySmartLink(db, config.sessionSecret, parseSmartLink(request.query), clock());
    if (verdict.kind === 'invalid') {
      return show(request, reply, 404, html`<p class="notice error" role="alert">${INVALID_LINK_MESSAGE}</p><p><a class="inline-link" href="/checkout/">Go to your basket</a></p>`);
    }
    if (verdict.kind === 'expired') {
      return show(request, reply, 410, html`<p class="notice error" role="alert">${EXPIRED_LINK_MESSAGE}</p><p><a class="inline-link" href="/checkout/">Go to your basket</a></p>`);
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
        html`<p class="notice error" role="alert">${OTHER_BUYER_MESSAGE}</p>
        <form method="post" action="/signout/"><button class="button button--secondary" type="submit">Sign out</button></form>`,
      );
    }
    const back = request.url;
    return show(
      request,
      reply,
      200,
      html`<p>Order ${sale.reference}</p><p>${PROVE_BUYER_MESSAGE}</p>
      <p><a class="button" href="${`${SIGN_IN_PATH}?next=${encodeURIComponent(back)}`}">Sign in to continue</a></p>`,
    );
  });
}
