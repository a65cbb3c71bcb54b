/** Signing out, the mailing list and the policies. Signing in is its own page (./signin.ts). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import { confirmMailingList, findUser, MAILING_LIST_CONFIRM_PATH, mailingListConfirmation, requestMailingList } from '../../domain/users.ts';
import { Refusal } from '../../domain/refusal.ts';
import { refusalStatus } from '../../http/refusals.ts';
import { signOut, userIdOf } from '../../http/session.ts';
import type { AppDeps } from '../../http/deps.ts';
import { formText } from '../../../contract/index.ts';
import { ACCOUNT_MESSAGES } from '../../../contract/messages/account.ts';
import { html, type Html } from '../../views/html.ts';
import { sitePage } from '../../http/sitePage.ts';

const subscribeForm = z.object({ email: formText(254) });
const confirmForm = z.object({ token: formText(64) });

export function registerInfoPages(app: FastifyInstance, deps: AppDeps): void {
  const { db, config, clock, mailer } = deps;
  const pageFor = sitePage(deps);
  const send = async (request: FastifyRequest, reply: FastifyReply, title: string, body: Html, status = 200) =>
    reply.status(status).type('text/html; charset=utf-8').send(await pageFor(request, title, body));

  // Signing out changes state, so it is a POST (checked for same-site origin like every change);
  // a link to /signout/ shows the button instead of acting on a foreign page's say-so.
  app.get('/signout/', async (request, reply) => {
    const current = await findUser(db, userIdOf(request));
    return send(
      request,
      reply,
      'Sign out',
      html`<h1>Sign out</h1>${current ? html`<p>You are signed in as ${current.email}.</p>` : html`<p>You are not signed in.</p>`}
      <form method="post" action="/signout/"><button class="button" type="submit">Sign out</button></form>`,
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
      'Mailing list',
      html`<h1>Sign up for exclusive event news and discounts!</h1>${message ?? ''}
      <form method="post" action="/mailing-list" class="form-row"><label class="field">E-mail address <input class="input" type="email" name="email" required autocomplete="email"></label>
      <button class="button" type="submit">Subscribe</button></form>`,
      status,
    );
  app.get('/mailing-list', async (request, reply) => mailingListPage(request, reply, null));
  // Double opt-in: the form only e-mails the address a confirmation link; following it subscribes.
  app.post('/mailing-list', async (request, reply) => {
    const parsed = subscribeForm.safeParse(request.body ?? {});
    try {
      if (!parsed.success) throw new Refusal('invalid-input', ACCOUNT_MESSAGES.invalidEmail);
      await requestMailingList(db, { mailer, brandName: config.brandName, publicUrl: config.publicUrl }, parsed.data.email, clock());
    } catch (err) {
      if (err instanceof Refusal) return mailingListPage(request, reply, html`<p class="notice error" role="alert">${err.message}</p>`, refusalStatus(err));
      throw err;
    }
    return mailingListPage(
      request,
      reply,
      html`<p class="notice ok" role="status">Almost there: we have e-mailed you a link. Open it to confirm your sign-up; until then you are not on the list.</p>`,
    );
  });

  const confirmPage = (request: FastifyRequest, reply: FastifyReply, body: Html, status = 200) => {
    // The token is in the address: never cached, never passed on as a referrer.
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return send(request, reply, 'Confirm your sign-up', html`<h1>Confirm your sign-up</h1>${body}`, status);
  };
  const refusedConfirmation = (request: FastifyRequest, reply: FastifyReply, err: unknown) => {
    if (!(err instanceof Refusal)) throw err;
    return confirmPage(request, reply, html`<p class="notice error" role="alert">${err.message}</p><p><a class="inline-link" href="/mailing-list">Sign up again</a></p>`, refusalStatus(err));
  };
  // Opening the link shows what it would do; only pressing Confirm subscribes, so a mail scanner
  // that fetches every link in an e-mail subscribes no one.
  app.get<{ Querystring: { token?: string } }>(MAILING_LIST_CONFIRM_PATH, async (request, reply) => {
    try {
      const email = await mailingListConfirmation(db, request.query.token, clock());
      return confirmPage(
        request,
        reply,
        html`<p>Subscribe ${email} to event news and discounts?</p>
        <form method="post" action="${MAILING_LIST_CONFIRM_PATH}"><input type="hidden" name="token" value="${request.query.token ?? ''}">
        <button class="button" type="submit">Confirm</button></form>`,
      );
    } catch (err) {
      return refusedConfirmation(request, reply, err);
    }
  });
  app.post(MAILING_LIST_CONFIRM_PATH, async (request, reply) => {
    const parsed = confirmForm.safeParse(request.body ?? {});
    try {
      const email = await confirmMailingList(db, parsed.success ? parsed.data.token : null, clock());
      return confirmPage(request, reply, html`<p class="notice ok" role="status">Thanks! ${email} is on the list.</p>`);
    } catch (err) {
      return refusedConfirmation(request, reply, err);
    }
  });

  app.get('/refund-policy/', async (request, reply) =>
    send(
      request,
      reply,
      'Refund policy',
      html`<div class="prose"><h1>Refund policy</h1>
      <p>Unless the organiser sets its own policy (shown with each ticket), you can ask for a refund up to 7 days before the event.
      Tickets marked non-refundable cannot be refunded unless the event is cancelled.</p>
      <p>Refund protection, when you choose it in the basket, covers the ticket price if you cannot attend for a reason listed in its terms.</p>
      <p>Booking fees generally cannot be refunded; your statutory rights are unaffected.</p></div>`,
    ),
  );

  app.get('/legal-information/purchase-terms-and-conditions/', async (request, reply) =>
    send(
      request,
      reply,
      'Purchase terms and conditions',
      html`<div class="prose"><h1>Purchase terms and conditions</h1>
      <h2>1. Who sells your tickets</h2><p>${config.brandName} sells tickets as agent for the event organiser, who is responsible for the event.</p>
      <h2>2. Reservations</h2><p>Reserving a basket holds its tickets for a limited time shown by the countdown. When the time runs out the tickets are released.</p>
      <h2>3. Prices</h2><p>Prices include VAT where applicable. Booking fees are shown in the basket before you pay.</p>
      <h2>4. Refunds</h2>
      <p>4.1 Refunds follow the organiser’s refund policy shown with each ticket.</p>
      <p>4.10 Booking fees generally cannot be refunded; your statutory rights are unaffected.</p></div>`,
    ),
  );
}
