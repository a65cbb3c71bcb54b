/** Signing out, the mailing list and the policies. Signing in is its own page (./signin.ts). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import {
  confirmMailingList,
  findUser,
  MAILING_LIST_CONFIRM_PATH,
  mailingListConfirmation,
  requestMailingList,
} from '../../domain/users.ts';
import { Refusal } from '../../domain/refusal.ts';
import { refusalStatus } from '../../http/refusals.ts';
import { signOut, userIdOf } from '../../http/session.ts';
import type { AppDeps } from '../../http/deps.ts';
import { formText } from '../../../contract/index.ts';
import { ACCOUNT_MESSAGES } from '../../../contract/messages/account.ts';
import { html, type Html } from '../../views/html.ts';
import { sitePage } from '../../http/sitePage.ts';
import { t } from '../../../i18n/runtime.ts';
import { inActiveLanguage } from '../../../i18n/catalogues.ts';

const subscribeForm = z.object({ email: formText(254) });
const confirmForm = z.object({ token: formText(64) });

export function registerInfoPages(app: FastifyInstance, deps: AppDeps): void {
  const { db, config, clock, mailer } = deps;
  const pageFor = sitePage(deps);
  const send = async (request: FastifyRequest, reply: FastifyReply, title: string, body: Html, status = 200) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(await pageFor(request, title, body));

  // Signing out changes state, so it is a POST (checked for same-site origin like every change);
  // a link to /signout/ shows the button instead of acting on a foreign page's say-so.
  app.get('/signout/', async (request, reply) => {
    const current = await findUser(db, userIdOf(request));
    return send(
      request,
      reply,
      t('page.signOut.title'),
      html`<h1>${t('page.signOut.title')}</h1>${current ? html`<p>${t('page.signOut.signedInAs', { email: current.email })}</p>` : html`<p>${t('page.signOut.notSignedIn')}</p>`}
      <form method="post" action="/signout/"><button class="button" type="submit">${t('page.signOut.button')}</button></form>`,
    );
  });
  app.post('/signout/', async (request, reply) => {
    await signOut(request, reply);
    return reply.redirect('/all-events/', 303);
  });

  const mailingListPage = (request: FastifyRequest, reply: FastifyReply, message: Html | null, status = 200) =>
    send(
      request,
      reply,
      t('site.mailingList'),
      html`<h1>${t('page.mailingList.heading')}</h1>${message ?? ''}
      <form method="post" action="/mailing-list" class="form-row"><label class="field">${t('page.mailingList.email')} <input class="input" type="email" name="email" required autocomplete="email"></label>
      <button class="button" type="submit">${t('page.mailingList.subscribe')}</button></form>`,
      status,
    );
  app.get('/mailing-list', async (request, reply) => mailingListPage(request, reply, null));
  // Double opt-in: the form only e-mails the address a confirmation link; following it subscribes.
  app.post('/mailing-list', async (request, reply) => {
    const parsed = subscribeForm.safeParse(request.body ?? {});
    try {
      if (!parsed.success) throw new Refusal('invalid-input', ACCOUNT_MESSAGES.invalidEmail);
      await requestMailingList(
        db,
        { mailer, brandName: config.brandName, publicUrl: config.publicUrl },
        parsed.data.email,
        clock(),
      );
    } catch (err) {
      if (err instanceof Refusal)
        return mailingListPage(
          request,
          reply,
          html`<p class="notice error" role="alert">${inActiveLanguage(err.message)}</p>`,
          refusalStatus(err),
        );
      throw err;
    }
    return mailingListPage(request, reply, html`<p class="notice ok" role="status">${t('page.mailingList.sent')}</p>`);
  });

  const confirmPage = (request: FastifyRequest, reply: FastifyReply, body: Html, status = 200) => {
    // The token is in the address: never cached, never passed on as a referrer.
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return send(
      request,
      reply,
      t('page.mailingList.confirmTitle'),
      html`<h1>${t('page.mailingList.confirmTitle')}</h1>${body}`,
      status,
    );
  };
  const refusedConfirmation = (request: FastifyRequest, reply: FastifyReply, err: unknown) => {
    if (!(err instanceof Refusal)) throw err;
    return confirmPage(
      request,
      reply,
      html`<p class="notice error" role="alert">${inActiveLanguage(err.message)}</p><p><a class="inline-link" href="/mailing-list">${t('page.mailingList.again')}</a></p>`,
      refusalStatus(err),
    );
  };
  // Opening the link shows what it would do; only pressing Confirm subscribes, so a mail scanner
  // that fetches every link in an e-mail subscribes no one.
  app.get<{ Querystring: { token?: string } }>(MAILING_LIST_CONFIRM_PATH, async (request, reply) => {
    try {
      const email = await mailingListConfirmation(db, request.query.token, clock());
      return confirmPage(
        request,
        reply,
        html`<p>${t('page.mailingList.question', { email })}</p>
        <form method="post" action="${MAILING_LIST_CONFIRM_PATH}"><input type="hidden" name="token" value="${request.query.token ?? ''}">
        <button class="button" type="submit">${t('page.mailingList.confirm')}</button></form>`,
      );
    } catch (err) {
      return refusedConfirmation(request, reply, err);
    }
  });
  app.post(MAILING_LIST_CONFIRM_PATH, async (request, reply) => {
    const parsed = confirmForm.safeParse(request.body ?? {});
    try {
      const email = await confirmMailingList(db, parsed.success ? parsed.data.token : null, clock());
      return confirmPage(
        request,
        reply,
        html`<p class="notice ok" role="status">${t('page.mailingList.thanks', { email })}</p>`,
      );
    } catch (err) {
      return refusedConfirmation(request, reply, err);
    }
  });

  app.get('/refund-policy/', async (request, reply) =>
    send(
      request,
      reply,
      t('site.refundPolicy'),
      html`<div class="prose"><h1>${t('site.refundPolicy')}</h1>
      <p>${t('page.refund.p1')}</p>
      <p>${t('page.refund.p2')}</p>
      <p>${t('page.refund.p3')}</p></div>`,
    ),
  );

  app.get('/legal-information/purchase-terms-and-conditions/', async (request, reply) =>
    send(
      request,
      reply,
      t('page.terms.title'),
      html`<div class="prose"><h1>${t('page.terms.title')}</h1>
      <h2>${t('page.terms.h1')}</h2><p>${t('page.terms.p1', { brand: config.brandName })}</p>
      <h2>${t('page.terms.h2')}</h2><p>${t('page.terms.p2')}</p>
      <h2>${t('page.terms.h3')}</h2><p>${t('page.terms.p3')}</p>
      <h2>${t('page.terms.h4')}</h2>
      <p>${t('page.terms.p41')}</p>
      <p>${t('page.terms.p410')}</p></div>`,
    ),
  );
}
