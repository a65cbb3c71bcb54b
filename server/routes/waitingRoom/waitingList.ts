/**
 * The waiting list's routes: joining (JSON for the queue page's script, a page for the event page's
 * plain form) and a ticket type's own waiting-list page. An offer is claimed in ./offer.ts.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod/mini';
import { rows } from '../../db/index.ts';
import type { AppDeps } from '../../http/deps.ts';
import { html, page, type Html } from '../../views/html.ts';
import { joinWaitingList } from '../../domain/waitingRoom/waitingList.ts';
import { WAITING_LIST_PATH } from '../../../contract/waitingRoom.ts';

export const WAITING_LIST_INVALID_MESSAGE = 'Give a valid e-mail address and how many tickets you want.';

const idParam = (raw: string): number | null => (/^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : null);

const waitingListForm = z.object({
  ticket_type_id: z.string().check(z.regex(/^[1-9]\d{0,8}$/)),
  email: z.string().check(z.maxLength(254), z.email()),
  quantity: z.optional(z.string().check(z.regex(/^[1-9]\d?$/))),
});

export function registerWaitingList(app: FastifyInstance, deps: AppDeps): void {
  const { db, config, clock } = deps;

  // The waiting list: JSON for the queue page's script, a page for the event page's plain form.
  app.post(WAITING_LIST_PATH, async (request, reply) => {
    const parsed = waitingListForm.safeParse(request.body);
    const browser = (request.headers.accept ?? '').includes('text/html');
    if (!parsed.success) {
      if (!browser) return reply.status(400).send({ error: WAITING_LIST_INVALID_MESSAGE });
      reply.status(400).type('text/html; charset=utf-8');
      return page(config, 'Waiting list', html`<h1>Waiting list</h1><p class="notice error" role="alert">${WAITING_LIST_INVALID_MESSAGE}</p>`);
    }
    const qty = Math.min(Number(parsed.data.quantity ?? '1'), config.maxPerOrder);
    const answer = await joinWaitingList(db, { ticketTypeId: Number(parsed.data.ticket_type_id), email: parsed.data.email.trim(), qty }, clock(), config.checkoutTimeSeconds);
    if (!browser) return answer;
    reply.type('text/html; charset=utf-8');
    return page(config, 'Waiting list', html`<h1>Waiting list</h1><p class="notice" role="status">${answer.message}</p><p><a class="inline-link" href="/all-events/">See all events</a></p>`);
  });

  app.get<{ Params: { typeId: string } }>('/waiting-list/:typeId/', async (request, reply) => {
    const id = idParam(request.params.typeId);
    const [type] = id
      ? await rows<{ id: number; name: string; title: string }>(
          db,
          sql`SELECT t.id, t.name, e.title FROM ticket_types t JOIN event_dates d ON d.id = t.event_date_id JOIN events e ON e.id = d.event_id WHERE t.id = ${id}`,
        )
      : [];
    reply.type('text/html; charset=utf-8');
    if (!type) return reply.status(404).send(page(config, 'Not found', html`<h1>These tickets could not be found</h1>`));
    return page(config, 'Waiting list', html`<h1>${type.title}: ${type.name}</h1><p>${WAITING_LIST_INTRO}</p>${waitingListFormHtml([{ id: Number(type.id), name: type.name }], config.maxPerOrder)}`);
  });
}

export const WAITING_LIST_INTRO = 'Leave your e-mail address: if tickets are released, the next buyer on the list is e-mailed a link that holds them for a while.';


export function waitingListFormHtml(types: { id: number; name: string }[], maxQty: number): Html {
  return html`<form class="waiting-list" method="post" action="${WAITING_LIST_PATH}" data-waiting-list>
    <p><label for="wl-type">Tickets</label> <select id="wl-type" name="ticket_type_id">${types.map((t) => html`<option value="${t.id}">${t.name}</option>`)}</select></p>
    <p><label for="wl-qty">How many</label> <input id="wl-qty" name="quantity" type="number" inputmode="numeric" min="1" max="${maxQty}" value="1"></p>
    <p><label for="wl-email">E-mail address</label> <input id="wl-email" name="email" type="email" autocomplete="email" required></p>
    <button class="button" type="submit">Join the waiting list</button></form>`;
}

