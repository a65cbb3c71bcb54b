/**
 * The development mailbox (/dev/mailbox): the outbox as a person reads it, newest first, e-mail and
 * text messages (SMS) alike, so a one-time code, a ticket wallet or a reminder can be followed
 * without a mail server or a phone; links to this site are links, as a mail reader makes them. Registered only in demo
 * mode (server/config.ts): it shows anyone every one-time code.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { latestMail } from '../../mail/index.ts';
import { phoneForSms } from '../../sms/index.ts';
import type { AppDeps } from '../../http/deps.ts';
import { type Html, html, page } from '../../views/html.ts';

/** The body with this site's own addresses as links (escaped like any text); other addresses stay text. */
function withLinks(body: string, origin: string): Html[] {
  const parts: Html[] = [];
  const pattern = /https?:\/\/[^\s<>"']+/g;
  let last = 0;
  for (const match of body.matchAll(pattern)) {
    const url = match[0];
    parts.push(html`${body.slice(last, match.index)}`);
    parts.push(url.startsWith(`${origin}/`) ? html`<a class="inline-link" href="${url}">${url}</a>` : html`${url}`);
    last = match.index + url.length;
  }
  parts.push(html`${body.slice(last)}`);
  return parts;
}

const query = z.object({ to: z.optional(z.string().check(z.maxLength(254))) });

export function registerMailbox(app: FastifyInstance, deps: AppDeps): void {
  app.get('/dev/mailbox', async (request, reply) => {
    const parsed = query.safeParse(request.query ?? {});
    const asked = parsed.success && parsed.data.to ? parsed.data.to.trim() : '';
    // An e-mail address as stored (lower case); a phone number as its text messages are addressed.
    const to =
      asked === '' ? undefined : asked.includes('@') || !/\d/.test(asked) ? asked.toLowerCase() : phoneForSms(asked);
    const messages = await latestMail(deps.db, to ? { recipient: to } : {});
    reply.header('cache-control', 'no-store');
    return reply.type('text/html; charset=utf-8').send(
      page(
        deps.config,
        'Mailbox',
        html`<h1>Mailbox</h1>
        <p class="muted">E-mail and text messages the product sent from this development server, newest first.${to ? html` Showing mail to ${to}.` : ''}</p>
        <form method="get" action="/dev/mailbox" class="form-row"><label class="field">Recipient (e-mail or phone number) <input class="input" type="text" name="to" value="${to ?? ''}" autocomplete="off"></label> <button class="button" type="submit">Show</button></form>
        ${
          messages.length === 0
            ? html`<p>No mail yet.</p>`
            : html`<ol class="mailbox" role="list">${messages.map(
                (m) => html`<li class="panel mail" data-recipient="${m.recipient}" data-channel="${m.channel}">
                <h2 class="mail__subject">${m.channel === 'sms' ? `Text message to ${m.recipient}` : m.subject}</h2>
                <p class="muted">${m.channel === 'sms' ? 'SMS' : 'E-mail'} to ${m.recipient} · ${m.createdAt.toISOString()}${m.sentAt ? (m.channel === 'sms' ? ' · sent by the SMS provider' : ' · delivered by SMTP') : ''}</p>
                <pre class="mail__body">${withLinks(m.body, deps.config.publicUrl)}</pre>
              </li>`,
              )}</ol>`
        }`,
      ),
    );
  });
}
