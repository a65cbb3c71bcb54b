/**
 * The development mailbox (/dev/mailbox): the outbox as a person reads it, newest first, so a
 * one-time code or a ticket wallet can be followed without a mail server. Registered only in demo
 * mode (server/config.ts): it shows anyone every one-time code.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { latestMail } from '../../mail/index.ts';
import type { AppDeps } from '../../http/deps.ts';
import { html, page } from '../../views/html.ts';

const query = z.object({ to: z.optional(z.string().check(z.maxLength(254))) });

export function registerMailbox(app: FastifyInstance, deps: AppDeps): void {
  app.get('/dev/mailbox', async (request, reply) => {
    const parsed = query.safeParse(request.query ?? {});
    const to = parsed.success && parsed.data.to ? parsed.data.to.trim().toLowerCase() : undefined;
    const messages = await latestMail(deps.db, to ? { recipient: to } : {});
    reply.header('cache-control', 'no-store');
    return reply.type('text/html; charset=utf-8').send(
      page(
        deps.config,
        'Mailbox',
        html`<h1>Mailbox</h1>
        <p class="muted">Mail the product sent from this development server, newest first.${to ? html` Showing mail to ${to}.` : ''}</p>
        <form method="get" action="/dev/mailbox" class="form-row"><label class="field">Recipient <input class="input" type="email" name="to" value="${to ?? ''}" autocomplete="off"></label> <button class="button" type="submit">Show</button></form>
        ${messages.length === 0
          ? html`<p>No mail yet.</p>`
          : html`<ol class="mailbox" role="list">${messages.map(
              (m) => html`<li class="panel mail" data-recipient="${m.recipient}">
                <h2 class="mail__subject">${m.subject}</h2>
                <p class="muted">To ${m.recipient} · ${m.createdAt.toISOString()}${m.sentAt ? ' · delivered by SMTP' : ''}</p>
                <pre class="mail__body">${m.body}</pre>
              </li>`,
            )}</ol>`}`,
      ),
    );
  });
}
