/**
 * The waiting list's routes: joining (JSON for the queue page's script, a page for the event page's
 * plain form), with the proof of work; a ticket type's own waiting-list page; leaving by the link in
 * the confirmation. Every route that takes stock (adding, reserving) first gives stock freed while
 * buyers wait to the lists (`offerFreedStock`, attached to those routes by ./gates.ts), so no buyer
 * off the list claims it before them. An offer is claimed in ./offer.ts.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod/mini';
import type { AppDeps } from '../../http/deps.ts';
import type { WaitingRooms } from '../../domain/waitingRoom/room.ts';
import { html, page, type Html } from '../../views/html.ts';
import {
  entryForLeaving,
  entryOfLeaveToken,
  joinWaitingList,
  leavePath,
  leaveWaitingList,
  ticketTypeForWaitingList,
  LEAVE_UNKNOWN_MESSAGE,
} from '../../domain/waitingRoom/waitingList.ts';
import { waitingListMailOf } from '../../domain/waitingRoom/start.ts';
import { Refusal } from '../../domain/refusal.ts';
import { refusalStatus } from '../../http/refusals.ts';
import { WAITING_LIST_PATH } from '../../../contract/waitingRoom.ts';
import { t } from '../../../i18n/runtime.ts';
import { inActiveLanguage, sourceText } from '../../../i18n/catalogues.ts';

export const WAITING_LIST_INVALID_MESSAGE = 'Give a valid e-mail address and how many tickets you want.';
/** Said to a join without the solved browser check (the proof of work the queue's join asks for too). */
export const WAITING_LIST_NO_PROOF_MESSAGE = 'Joining the waiting list needs the browser check to be solved first.';
/** The leave page's button in the source's English, as the tests read it; the page writes it in its language. */
export const LEAVE_LABEL = sourceText('page.waitingList.leave');

const idParam = (raw: string): number | null => (/^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : null);

const waitingListForm = z.object({
  ticket_type_id: z.string().check(z.regex(/^[1-9]\d{0,8}$/)),
  email: z.string().check(z.maxLength(254), z.email()),
  quantity: z.optional(z.string().check(z.regex(/^[1-9]\d{0,3}$/))),
  altcha: z.optional(z.string().check(z.maxLength(20_000))),
});

export function registerWaitingList(app: FastifyInstance, deps: AppDeps, rooms: WaitingRooms): void {
  const { db, config, clock } = deps;

  const mail = waitingListMailOf(config, deps.mailer);
  const show = (reply: FastifyReply, body: Html, status = 200) =>
    reply
      .status(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page(config, t('page.queue.waitingList'), html`<h1>${t('page.queue.waitingList')}</h1>${body}`));

  // The waiting list: JSON for the queue page's script, a page for the event page's plain form.
  app.post(WAITING_LIST_PATH, async (request, reply) => {
    const parsed = waitingListForm.safeParse(request.body);
    const browser = (request.headers.accept ?? '').includes('text/html');
    const refuse = (message: string, status: number) =>
      browser
        ? show(reply, html`<p class="notice error" role="alert">${inActiveLanguage(message)}</p>`, status)
        : reply.status(status).send({ error: inActiveLanguage(message) });
    if (!parsed.success) return refuse(WAITING_LIST_INVALID_MESSAGE, 400);
    const token = parsed.data.altcha ?? '';
    if (!token || !(await deps.captcha.verify(token, request.ip))) return refuse(WAITING_LIST_NO_PROOF_MESSAGE, 403);
    try {
      const answer = await joinWaitingList(
        db,
        {
          ticketTypeId: Number(parsed.data.ticket_type_id),
          email: parsed.data.email.trim(),
          qty: Number(parsed.data.quantity ?? '1'),
          ip: request.ip ?? null,
        },
        clock(),
        { ...mail, maxHeldPerBuyer: config.maxHeldPerBuyer },
      );
      rooms.markListed();
      if (!browser) return answer;
      return show(
        reply,
        html`<p class="notice" role="status">${answer.message}</p><p><a class="inline-link" href="/all-events/">${t('page.seeAllEvents')}</a></p>`,
      );
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      return refuse(err.message, refusalStatus(err));
    }
  });

  // Leaving: the link shows what it leaves and asks (a mail scanner opening it changes nothing); the button leaves.
  app.get<{ Params: { token: string } }>('/waiting-list/leave/:token/', async (request, reply) => {
    const entryId = entryOfLeaveToken(config.sessionSecret, request.params.token, clock());
    const entry = entryId === null ? null : await entryForLeaving(db, entryId);
    if (!entry)
      return show(
        reply,
        html`<p class="notice error" role="alert">${inActiveLanguage(LEAVE_UNKNOWN_MESSAGE)}</p>`,
        404,
      );
    return show(
      reply,
      html`<p>${t('page.waitingList.onList', { typeName: entry.typeName, title: entry.title })}</p>
      <form method="post" action="${leavePath(request.params.token)}"><button class="button" type="submit">${t('page.waitingList.leave')}</button></form>`,
    );
  });
  app.post<{ Params: { token: string } }>('/waiting-list/leave/:token/', async (request, reply) => {
    const entryId = entryOfLeaveToken(config.sessionSecret, request.params.token, clock());
    if (entryId === null || !(await leaveWaitingList(db, entryId, clock(), mail)))
      return show(
        reply,
        html`<p class="notice error" role="alert">${inActiveLanguage(LEAVE_UNKNOWN_MESSAGE)}</p>`,
        404,
      );
    return show(
      reply,
      html`<p class="notice" role="status">${t('page.waitingList.left')}</p><p><a class="inline-link" href="/all-events/">${t('page.seeAllEvents')}</a></p>`,
    );
  });

  app.get<{ Params: { typeId: string } }>('/waiting-list/:typeId/', async (request, reply) => {
    const id = idParam(request.params.typeId);
    const type = id ? await ticketTypeForWaitingList(db, id) : null;
    reply.type('text/html; charset=utf-8');
    if (!type)
      return reply.status(404).send(page(config, t('page.notFound'), html`<h1>${t('page.waitingList.notFound')}</h1>`));
    return page(
      config,
      t('page.queue.waitingList'),
      html`<h1>${type.title}: ${type.name}</h1><p>${t('page.waitingList.intro')}</p>${waitingListFormHtml([{ id: Number(type.id), name: type.name }], config.maxPerOrder)}`,
    );
  });
}

export function waitingListFormHtml(types: { id: number; name: string }[], maxQty: number): Html {
  return html`<form class="waiting-list" method="post" action="${WAITING_LIST_PATH}" data-waiting-list>
    <p><label for="wl-type">${t('page.waitingList.tickets')}</label> <select id="wl-type" name="ticket_type_id">${types.map((t) => html`<option value="${t.id}">${t.name}</option>`)}</select></p>
    <p><label for="wl-qty">${t('page.waitingList.howMany')}</label> <input id="wl-qty" name="quantity" type="number" inputmode="numeric" min="1" max="${maxQty}" value="1"></p>
    <p><label for="wl-email">${t('page.waitingList.email')}</label> <input id="wl-email" name="email" type="email" autocomplete="email" required></p>
    <button class="button" type="submit">${t('page.waitingList.join')}</button></form>`;
}
