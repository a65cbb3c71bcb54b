/**
 * The organiser's console (/organiser/): for an account with an organiser's role, that organiser's
 * event dates; for each, setting up its on-sale, opening, pausing and resuming it, its rate, a
 * message every waiting page shows, presale codes, a live dashboard (figures and a chart its small
 * script refreshes from `live.json`), and its waiting lists. Every change is a same-site POST
 * (server/http/crossSite.ts) and writes an audit row shown on the page. Any other account is
 * refused in words (403); so is a date of an organiser the account does not run.
 *
 * The presale page (/presale/<date>/) takes a code the organiser gave out and lets its buyer in at
 * once, past the queue.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import type { AppDeps } from '../../http/deps.ts';
import { ensureSessionBinding, userIdOf } from '../../http/session.ts';
import { isRefusal, Refusal } from '../../domain/refusal.ts';
import { Html, html, page } from '../../views/html.ts';
import {
  addPresaleCode,
  admitWithPresaleCode,
  audit,
  ACTIONS,
  auditOf,
  dateFor,
  datesOf,
  NOT_ORGANISER_MESSAGE,
  NOT_SIGNED_IN_MESSAGE,
  openNow,
  organisersOf,
  presaleCodesOf,
  removePresaleCode,
  setMessage,
  setPaused,
  setRate,
  setUpOnSale,
  wrongPresaleTries,
  recordWrongPresaleTry,
  type AuditRow,
  type ConsoleDate,
} from '../../domain/organiser/console.ts';
import { figuresOf, HISTORY_MS, sampleAndHistory, type Figures } from '../../domain/organiser/dashboard.ts';
import { entryOf, listsOf, type TypeList } from '../../domain/organiser/waitingLists.ts';
import { entriesCsv, offerByHand, removeEntry } from '../../domain/waitingRoom/waitingList.ts';
import { waitingListMailOf } from '../../domain/waitingRoom/start.ts';
import { EVENT_TIME_ZONE, fromZonedInput, toZonedInput, zoned } from '../../domain/organiser/time.ts';
import { chartKey, chartSvg } from '../../views/organiserChart.ts';
import type { WaitingRooms } from '../../domain/waitingRoom/room.ts';
import { admissionCookie, signer } from '../../domain/waitingRoom/tokens.ts';

export const CONSOLE_PATH = '/organiser/';
const datePath = (dateId: number) => `/organiser/dates/${dateId}/`;
const STYLE_PATH = '/organiser/console.css';
const SCRIPT_PATH = '/organiser/console.js';
const CONSOLE_CSS = readFileSync(new URL('../../views/organiser.css', import.meta.url), 'utf8');
const CONSOLE_JS = readFileSync(new URL('../../views/organiserConsole.js', import.meta.url), 'utf8');

export const PRESALE_WRONG_MESSAGE =
  'This presale code is not right for this date, or it has been used as many times as it can be.';
export const PRESALE_NO_QUEUE_MESSAGE = 'This date has no presale.';
/** Wrong presale codes an address may type for a date in `PRESALE_TRY_WINDOW_MS`; past them every code is refused. */
export const PRESALE_WRONG_TRIES = 5;
const PRESALE_TRY_WINDOW_MS = 15 * 60_000;
export const PRESALE_TOO_MANY_MESSAGE =
  'Too many wrong presale codes have been typed from this connection. Please try again in 15 minutes, or join the queue.';
export const MESSAGE_MAX = 280;

const id = z.string().check(z.regex(/^[1-9]\d{0,8}$/));
const whole = (min: number, max: number) =>
  z.pipe(z.string().check(z.regex(/^\d{1,6}$/)), z.transform(Number)).check(z.refine((n) => n >= min && n <= max));
const setUpForm = z.object({
  on_sale_at: z.string().check(z.maxLength(20)),
  admit_per_minute: whole(1, 100_000),
  max_shoppers: whole(1, 100_000),
  admission_minutes: whole(1, 240),
  sign_in_to_queue: z.optional(z.literal('on')),
});
const rateForm = z.object({ admit_per_minute: whole(1, 100_000) });
const messageForm = z.object({ message: z.string().check(z.maxLength(MESSAGE_MAX)) });
const codeForm = z.object({ code: z.string().check(z.regex(/^[A-Za-z0-9-]{6,32}$/)), max_uses: whole(1, 100_000) });
const presaleForm = z.object({ code: z.string().check(z.maxLength(64)) });

const SET_UP_INVALID = `Give the on-sale time as a date and time, admissions a minute and shoppers at once as whole numbers from 1 to 100,000, and the time to buy as 1 to 240 minutes.`;
const RATE_INVALID = 'Give the rate as a whole number of admissions a minute, from 1 to 100,000.';
const MESSAGE_INVALID = `A message to waiting buyers is at most ${MESSAGE_MAX} characters.`;
const CODE_INVALID =
  'A presale code is 6 to 32 letters, digits or hyphens, with how many buyers may use it (1 to 100,000).';

const DONE: Record<string, string> = {
  'set-up': 'The on-sale is set up.',
  open: 'The on-sale is open: the queue is letting buyers in.',
  pause: 'Admission is paused. Waiting buyers keep their places.',
  resume: 'Admission has resumed.',
  rate: 'The rate is changed.',
  message: 'The message to waiting buyers is changed.',
  code: 'The presale code is added.',
  'code-removed': 'The presale code is removed.',
  removed: 'The entry is removed from the waiting list.',
  offered: 'The tickets are offered: the buyer is e-mailed a link that holds them.',
};

export async function registerOrganiserConsole(
  app: FastifyInstance,
  deps: AppDeps,
  rooms: WaitingRooms,
): Promise<void> {
  const { db, config, clock } = deps;
  const sign = signer(config.sessionSecret);
  const head = new Html(`<link rel="stylesheet" href="${STYLE_PATH}">`);
  const send = (reply: FastifyReply, status: number, title: string, body: Html) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(page(config, title, html`${head}${body}`));

  /** A refusal as a page in words: sign in, not an organiser, another organiser's date, bad input. */
  function refused(reply: FastifyReply, err: unknown) {
    if (!isRefusal(err)) throw err;
    const status =
      err.code === 'sign-in-needed' ? 403 : err.code === 'not-found' ? 404 : err.code === 'conflict' ? 409 : 400;
    const signIn =
      err.message === NOT_SIGNED_IN_MESSAGE
        ? html`<p><a class="button" href="/signin/?next=${encodeURIComponent(CONSOLE_PATH)}">Sign in</a></p>`
        : '';
    return send(
      reply,
      status,
      'Organiser console',
      html`<h1>Organiser console</h1><p class="notice error" role="alert">${err.message}</p>${signIn}<p><a class="inline-link" href="${CONSOLE_PATH}">Back to the console</a></p>`,
    );
  }

  app.get(STYLE_PATH, (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(CONSOLE_CSS),
  );
  app.get(SCRIPT_PATH, (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(CONSOLE_JS),
  );

  app.get(CONSOLE_PATH, async (request, reply) => {
    const userId = userIdOf(request);
    if (userId === null) return refused(reply, new Refusal('sign-in-needed', NOT_SIGNED_IN_MESSAGE));
    const organisers = await organisersOf(db, userId);
    if (organisers.length === 0) return refused(reply, new Refusal('sign-in-needed', NOT_ORGANISER_MESSAGE));
    const sections = await Promise.all(
      organisers.map(async (o) => {
        const dates = await datesOf(db, o.id);
        const trail = await auditOf(db, o.id, 15);
        return html`<section class="panel console-organiser" aria-labelledby="org-${o.id}">
          <h2 id="org-${o.id}">${o.name}</h2>
          ${dates.length === 0 ? html`<p>No event dates yet.</p>` : html`<ul class="console-dates" role="list">${dates.map((d) => html`<li><a class="inline-link" href="${datePath(d.dateId)}">${d.title}</a> <span class="muted">${zoned(d.startsAt)}</span> · ${onSaleWords(d, clock())}</li>`)}</ul>`}
          <h3>Recent changes</h3>${auditTable(trail, true)}
        </section>`;
      }),
    );
    return send(
      reply,
      200,
      'Organiser console',
      html`<h1>Organiser console</h1><p class="muted">On-sales of the organisers this account runs. Times are in the events’ time zone (${EVENT_TIME_ZONE}).</p>${sections}`,
    );
  });

  /** The date, when the signed-in account runs its organiser; otherwise a refusal. */
  const dateOf = async (request: FastifyRequest<{ Params: { dateId: string } }>) => {
    const parsed = id.safeParse(request.params.dateId);
    if (!parsed.success) throw new Refusal('not-found', 'There is no such event date.');
    return dateFor(db, userIdOf(request), Number(parsed.data));
  };

  async function datePage(
    request: FastifyRequest<{ Params: { dateId: string } }>,
    reply: FastifyReply,
    date: ConsoleDate,
    notice: { ok: boolean; text: string } | null,
    status = 200,
  ) {
    const now = clock();
    const [figures, codes, lists, trail] = await Promise.all([
      figuresOf(db, date, now),
      presaleCodesOf(db, date.dateId),
      listsOf(db, date.dateId, now),
      auditOf(db, date.organiserId, 30),
    ]);
    const samples = await sampleAndHistory(db, date, figures, now);
    const q = date.queue;
    const onSale = q ? toZonedInput(q.onSaleAt) : toZonedInput(new Date(now.getTime() + 86400_000));
    const body = html`<p><a class="inline-link" href="${CONSOLE_PATH}">Organiser console</a></p>
      <h1>${date.title}</h1>
      <p class="muted">${zoned(date.startsAt)} · ${onSaleWords(date, now)}</p>
      ${notice ? html`<p class="notice ${notice.ok ? 'ok' : 'error'}" role="${notice.ok ? 'status' : 'alert'}">${notice.text}</p>` : ''}
      <section class="panel" aria-labelledby="live-title" data-live="${datePath(date.dateId)}live.json">
        <h2 id="live-title">Live</h2>
        ${tiles(figures)}
        <div class="console-chart-wrap" data-chart>${new Html(chartSvg(samples, now, HISTORY_MS))}</div>
        ${new Html(chartKey())}
        <p class="muted" data-live-status role="status">Updated ${zoned(now)}.</p>
      </section>
      ${q ? controls(date, q, now) : ''}
      <section class="panel" aria-labelledby="setup-title">
        <h2 id="setup-title">${q ? 'On-sale settings' : 'Set up the on-sale'}</h2>
        <form method="post" action="${datePath(date.dateId)}on-sale/" class="console-form">
          <p><label for="on_sale_at">On-sale time (${EVENT_TIME_ZONE})</label> <input id="on_sale_at" name="on_sale_at" type="datetime-local" value="${onSale}" required ${q?.drawn ? new Html('readonly') : ''}></p>
          <p><label for="admit_per_minute">Admissions a minute</label> <input id="admit_per_minute" name="admit_per_minute" type="number" inputmode="numeric" min="1" max="100000" value="${q?.admitPerMinute ?? 60}" required></p>
          <p><label for="max_shoppers">Most shoppers at once</label> <input id="max_shoppers" name="max_shoppers" type="number" inputmode="numeric" min="1" max="100000" value="${q?.maxShoppers ?? 100}" required></p>
          <p><label for="admission_minutes">Minutes each admitted buyer has to reserve</label> <input id="admission_minutes" name="admission_minutes" type="number" inputmode="numeric" min="1" max="240" value="${q ? Math.round(q.admissionSeconds / 60) : 15}" required></p>
          <p><input id="sign_in_to_queue" name="sign_in_to_queue" type="checkbox" ${q?.signInToQueue ? new Html('checked') : ''}> <label for="sign_in_to_queue">Buyers sign in to queue (one place per account)</label></p>
          <button class="button" type="submit">${q ? 'Save the settings' : 'Set up the on-sale'}</button>
        </form>
      </section>
      ${q ? presaleSection(date, codes) : ''}
      <section class="panel" aria-labelledby="lists-title"><h2 id="lists-title">Waiting lists</h2>${lists.map((l) => listSection(date, l))}</section>
      <section class="panel" aria-labelledby="audit-title"><h2 id="audit-title">Changes</h2>${auditTable(
        trail.filter((r) => r.title === date.title),
        false,
      )}</section>
      <script src="${SCRIPT_PATH}" defer></script>`;
    return send(reply, status, `Console: ${date.title}`, body);
  }

  app.get<{ Params: { dateId: string }; Querystring: { done?: string } }>(
    '/organiser/dates/:dateId/',
    async (request, reply) => {
      try {
        const date = await dateOf(request);
        const done = DONE[request.query.done ?? ''];
        return await datePage(request, reply, date, done ? { ok: true, text: done } : null);
      } catch (err) {
        return refused(reply, err);
      }
    },
  );

  app.get<{ Params: { dateId: string } }>('/organiser/dates/:dateId/live.json', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    let date: ConsoleDate;
    try {
      date = await dateOf(request);
    } catch (err) {
      if (!isRefusal(err)) throw err;
      return reply.status(err.code === 'not-found' ? 404 : 403).send({ error: err.message });
    }
    const now = clock();
    const figures = await figuresOf(db, date, now);
    const samples = await sampleAndHistory(db, date, figures, now);
    return {
      figures: { ...figures, soldOutAt: figures.soldOutAt ? zoned(figures.soldOutAt) : null },
      tiles: tiles(figures).value,
      chart: chartSvg(samples, now, HISTORY_MS),
      updated: `Updated ${zoned(now)}.`,
    };
  });

  /** A change: the date checked for this account, the form read, the change made with its audit row, then back to the page. */
  function post<T>(
    path: string,
    form: z.ZodMiniType<T> | null,
    invalid: string,
    act: (date: ConsoleDate, body: T, who: { userId: number; now: Date }, itemId: number) => Promise<string>,
  ) {
    app.post<{ Params: { dateId: string; itemId?: string } }>(
      `/organiser/dates/:dateId/${path}`,
      async (request, reply) => {
        let date: ConsoleDate;
        try {
          date = await dateOf(request);
        } catch (err) {
          return refused(reply, err);
        }
        const parsed = form ? form.safeParse(request.body ?? {}) : { success: true as const, data: undefined as T };
        if (!parsed.success) return datePage(request, reply, date, { ok: false, text: invalid }, 400);
        try {
          const item =
            request.params.itemId === undefined
              ? 0
              : id.safeParse(request.params.itemId).success
                ? Number(request.params.itemId)
                : null;
          if (item === null) throw new Refusal('not-found', 'There is no such item.');
          const done = await act(date, parsed.data, { userId: userIdOf(request)!, now: clock() }, item);
          await rooms.refresh();
          return reply.header('cache-control', 'no-store').redirect(`${datePath(date.dateId)}?done=${done}`, 303);
        } catch (err) {
          if (!isRefusal(err)) throw err;
          return datePage(
            request,
            reply,
            await dateOf(request),
            { ok: false, text: err.message },
            err.code === 'not-found' ? 404 : err.code === 'conflict' ? 409 : 400,
          );
        }
      },
    );
  }

  post('on-sale/', setUpForm, SET_UP_INVALID, async (date, body, who) => {
    const onSaleAt = fromZonedInput(body.on_sale_at);
    if (!onSaleAt) throw new Refusal('invalid-input', SET_UP_INVALID);
    await setUpOnSale(
      db,
      date,
      who,
      {
        onSaleAt,
        admitPerMinute: body.admit_per_minute,
        maxShoppers: body.max_shoppers,
        admissionSeconds: body.admission_minutes * 60,
        signInToQueue: body.sign_in_to_queue === 'on',
      },
      zoned,
    );
    return 'set-up';
  });
  post('open/', null, '', async (date, _b, who) => (await openNow(db, date, who), 'open'));
  post('pause/', null, '', async (date, _b, who) => (await setPaused(db, date, who, true), 'pause'));
  post('resume/', null, '', async (date, _b, who) => (await setPaused(db, date, who, false), 'resume'));
  post(
    'rate/',
    rateForm,
    RATE_INVALID,
    async (date, body, who) => (await setRate(db, date, who, body.admit_per_minute), 'rate'),
  );
  post('message/', messageForm, MESSAGE_INVALID, async (date, body, who) => {
    const text = body.message.replace(/\s+/g, ' ').trim();
    await setMessage(db, date, who, text === '' ? null : text);
    return 'message';
  });
  post(
    'presale-codes/',
    codeForm,
    CODE_INVALID,
    async (date, body, who) => (await addPresaleCode(db, date, who, body.code.toUpperCase(), body.max_uses), 'code'),
  );
  post(
    'presale-codes/:itemId/remove/',
    null,
    '',
    async (date, _b, who, itemId) => (await removePresaleCode(db, date, who, itemId), 'code-removed'),
  );
  const listMail = waitingListMailOf(config, deps.mailer);
  const listEntry = async (date: ConsoleDate, itemId: number) => {
    const entry = await entryOf(db, date.dateId, itemId);
    if (!entry) throw new Refusal('not-found', 'This entry is not on one of this date’s waiting lists.');
    return entry;
  };
  post('waiting-list/:itemId/remove/', null, '', async (date, _b, who, itemId) => {
    const entry = await listEntry(date, itemId);
    if (!(await removeEntry(db, entry.id, who.now, listMail)))
      throw new Refusal('conflict', 'This entry is off the list already.');
    await audit(db, {
      organiserId: date.organiserId,
      eventDateId: date.dateId,
      userId: who.userId,
      at: who.now,
      action: ACTIONS.removeEntry,
      detail: `${entry.email}, ${entry.qty} × ${entry.typeName}`,
    });
    return 'removed';
  });
  post('waiting-list/:itemId/offer/', null, '', async (date, _b, who, itemId) => {
    const entry = await listEntry(date, itemId);
    const { until } = await offerByHand(db, entry.id, who.now, listMail);
    await audit(db, {
      organiserId: date.organiserId,
      eventDateId: date.dateId,
      userId: who.userId,
      at: who.now,
      action: ACTIONS.offer,
      detail: `${entry.email}, ${entry.qty} × ${entry.typeName}, held until ${zoned(until)}`,
    });
    return 'offered';
  });

  app.get<{ Params: { dateId: string; typeId: string } }>(
    '/organiser/dates/:dateId/waiting-list/:typeId/export.csv',
    async (request, reply) => {
      let date: ConsoleDate;
      try {
        date = await dateOf(request);
      } catch (err) {
        return refused(reply, err);
      }
      const list = (await listsOf(db, date.dateId, clock())).find((l) => String(l.typeId) === request.params.typeId);
      if (!list) return refused(reply, new Refusal('not-found', 'These tickets are not one of this date’s.'));
      const name = `waiting-list-${date.dateId}-${list.typeId}.csv`;
      const csv = await entriesCsv(db, list.typeId, clock());
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(csv);
    },
  );

  // The presale page: a code the organiser gave out lets its buyer straight in, past the queue.
  app.get<{ Params: { dateId: string } }>('/presale/:dateId/', async (request, reply) => {
    const dateId = id.safeParse(request.params.dateId);
    const date = dateId.success ? await rooms.date(Number(dateId.data)) : null;
    if (!date)
      return send(
        reply,
        404,
        'Presale',
        html`<h1>Presale</h1><p class="notice error" role="alert">${PRESALE_NO_QUEUE_MESSAGE}</p>`,
      );
    return send(reply, 200, `Presale: ${date.title}`, presalePage(date.row.eventDateId, date.title, null));
  });
  app.post<{ Params: { dateId: string } }>('/presale/:dateId/', async (request, reply) => {
    const dateId = id.safeParse(request.params.dateId);
    const date = dateId.success ? await rooms.date(Number(dateId.data)) : null;
    if (!date)
      return send(
        reply,
        404,
        'Presale',
        html`<h1>Presale</h1><p class="notice error" role="alert">${PRESALE_NO_QUEUE_MESSAGE}</p>`,
      );
    const parsed = presaleForm.safeParse(request.body ?? {});
    const code = parsed.success ? parsed.data.code.trim() : '';
    const now = clock();
    // Checked before the code, so that a guesser past the limit learns nothing from trying, even the right one.
    if (
      (await wrongPresaleTries(
        db,
        date.row.eventDateId,
        request.ip,
        new Date(now.getTime() - PRESALE_TRY_WINDOW_MS),
      )) >= PRESALE_WRONG_TRIES
    ) {
      return send(
        reply,
        429,
        `Presale: ${date.title}`,
        presalePage(date.row.eventDateId, date.title, PRESALE_TOO_MANY_MESSAGE),
      );
    }
    const placeId = code ? await admitWithPresaleCode(db, date.row.eventDateId, code, now) : null;
    if (placeId === null) {
      await recordWrongPresaleTry(db, date.row.eventDateId, request.ip, now);
      return send(
        reply,
        400,
        `Presale: ${date.title}`,
        presalePage(date.row.eventDateId, date.title, PRESALE_WRONG_MESSAGE),
      );
    }
    const expiresAt = Math.floor(now.getTime() / 1000) + date.row.admissionSeconds;
    const binding = ensureSessionBinding(request, reply);
    reply.setCookie(
      admissionCookie(date.row.eventDateId),
      sign.admission({ dateId: date.row.eventDateId, placeId, expiresAt }, binding),
      {
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        path: '/',
        maxAge: date.row.admissionSeconds,
      },
    );
    return reply.header('cache-control', 'no-store').redirect(`/event/${date.eventId}/`, 303);
  });
}

function presalePage(dateId: number, title: string, error: string | null): Html {
  return html`<h1>${title}: presale</h1>
    <p>Have a presale code from the organiser? It lets you straight in to buy, without waiting in the queue.</p>
    ${error ? html`<p class="notice error" role="alert">${error}</p>` : ''}
    <form method="post" action="/presale/${dateId}/" class="console-form">
      <p><label for="presale-code">Presale code</label> <input id="presale-code" name="code" autocomplete="off" autocapitalize="characters" maxlength="64" required></p>
      <button class="button" type="submit">Use the code</button>
    </form>
    <p><a class="inline-link" href="/queue/${dateId}/">Join the queue instead</a></p>`;
}

function onSaleWords(d: ConsoleDate, now: Date): string {
  const q = d.queue;
  if (!q) return 'no on-sale set up';
  if (now < q.onSaleAt) return `on-sale opens ${zoned(q.onSaleAt)}`;
  return q.paused ? 'on-sale open, admission paused' : `on-sale open since ${zoned(q.onSaleAt)}`;
}

const STATE_WORDS: Record<Figures['state'], string> = {
  'no-on-sale': 'No on-sale',
  'before-sale': 'Not open yet',
  open: 'Open',
  paused: 'Paused',
  'sold-out': 'Sold out',
};

export function tiles(f: Figures): Html {
  const tile = (key: string, label: string, value: string | number) =>
    html`<div class="console-tile"><dt>${label}</dt><dd data-figure="${key}">${value}</dd></div>`;
  return html`<dl class="console-tiles" data-tiles>
    ${tile('state', 'State', STATE_WORDS[f.state])}
    ${tile('waiting', 'Queue length', f.waiting)}
    ${tile('admitted', 'Admitted in the last minute', f.admittedLastMinute)}
    ${tile('shoppers', 'Shoppers in', f.shoppers)}
    ${tile('held', 'Tickets held', f.held)}
    ${tile('sold', 'Sold', `${f.sold} of ${f.capacity}`)}
    ${tile('sold-out', 'Sold out at', f.soldOutAt ? zoned(f.soldOutAt) : 'Not sold out')}
    ${tile('rate', 'Rate', f.admitPerMinute === null ? '–' : `${f.admitPerMinute} a minute`)}
  </dl>`;
}

function controls(date: ConsoleDate, q: NonNullable<ConsoleDate['queue']>, now: Date): Html {
  const base = datePath(date.dateId);
  const action = (path: string, label: string, secondary = false) =>
    html`<form method="post" action="${base}${path}"><button class="button${secondary ? ' button--secondary' : ''}" type="submit">${label}</button></form>`;
  return html`<section class="panel" aria-labelledby="run-title">
    <h2 id="run-title">Run the on-sale</h2>
    <div class="form-row">
      ${q.onSaleAt > now ? action('open/', 'Open now') : ''}
      ${q.paused ? action('resume/', 'Resume admission') : action('pause/', 'Pause admission', true)}
    </div>
    <form method="post" action="${base}rate/" class="console-form console-inline">
      <p><label for="rate">Admissions a minute, from now</label> <input id="rate" name="admit_per_minute" type="number" inputmode="numeric" min="1" max="100000" value="${q.admitPerMinute}" required></p>
      <button class="button button--secondary" type="submit">Change the rate</button>
    </form>
    <form method="post" action="${base}message/" class="console-form">
      <p><label for="message">Message on every waiting page (empty for none)</label>
      <textarea id="message" name="message" rows="2" maxlength="${MESSAGE_MAX}">${q.message ?? ''}</textarea></p>
      <button class="button button--secondary" type="submit">Send the message</button>
    </form>
  </section>`;
}

function presaleSection(date: ConsoleDate, codes: Awaited<ReturnType<typeof presaleCodesOf>>): Html {
  const base = datePath(date.dateId);
  return html`<section class="panel" aria-labelledby="presale-title">
    <h2 id="presale-title">Presale codes</h2>
    <p>A buyer who types a code at <a class="inline-link" href="/presale/${date.dateId}/">the presale page</a> is let in at once, past the queue.</p>
    ${
      codes.length === 0
        ? html`<p>No presale codes.</p>`
        : html`<table class="console-table"><caption class="visually-hidden">Presale codes</caption><thead><tr><th scope="col">Code</th><th scope="col">Used</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead><tbody>${codes.map(
            (c) =>
              html`<tr><td>${c.code}</td><td>${c.uses} of ${c.maxUses}</td><td><form method="post" action="${base}presale-codes/${c.id}/remove/"><button class="button button--secondary" type="submit" aria-label="Remove the code ${c.code}">Remove</button></form></td></tr>`,
          )}</tbody></table>`
    }
    <form method="post" action="${base}presale-codes/" class="console-form console-inline">
      <p><label for="code">New code</label> <input id="code" name="code" pattern="[A-Za-z0-9\\-]{6,32}" maxlength="32" required></p>
      <p><label for="max_uses">Buyers who may use it</label> <input id="max_uses" name="max_uses" type="number" inputmode="numeric" min="1" max="100000" value="50" required></p>
      <button class="button button--secondary" type="submit">Add the code</button>
    </form>
  </section>`;
}

function listSection(date: ConsoleDate, l: TypeList): Html {
  const base = datePath(date.dateId);
  return html`<section class="console-list" aria-labelledby="list-${l.typeId}">
    <h3 id="list-${l.typeId}">${l.name}: ${l.waiting} waiting</h3>
    <p><a class="inline-link" href="${base}waiting-list/${l.typeId}/export.csv" download>Export the ${l.name} waiting list (CSV)</a></p>
    ${
      l.entries.length === 0
        ? html`<p class="muted">Nobody is on this list.</p>`
        : html`<table class="console-table"><caption class="visually-hidden">${l.name} waiting list</caption><thead><tr><th scope="col">Place</th><th scope="col">E-mail</th><th scope="col">Tickets</th><th scope="col">Joined</th><th scope="col">Where it stands</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${l.entries.map(
            (
              e,
            ) => html`<tr><td>${e.position ?? '–'}</td><td>${e.email}</td><td>${e.qty}</td><td>${zoned(e.joinedAt)}</td><td>${e.status}${e.status === 'offered' && e.offerExpiresAt ? `, until ${zoned(e.offerExpiresAt)}` : ''}</td>
            <td><div class="console-actions">${e.status === 'waiting' ? html`<form method="post" action="${base}waiting-list/${e.id}/offer/"><button class="button button--secondary" type="submit" aria-label="Offer ${e.email} their tickets now">Offer now</button></form>` : ''}
            ${e.status === 'waiting' || e.status === 'offered' ? html`<form method="post" action="${base}waiting-list/${e.id}/remove/"><button class="button button--secondary" type="submit" aria-label="Remove ${e.email}">Remove</button></form>` : ''}</div></td></tr>`,
          )}</tbody></table>`
    }
  </section>`;
}

function auditTable(trail: AuditRow[], withDate: boolean): Html {
  if (trail.length === 0) return html`<p class="muted">No changes yet.</p>`;
  return html`<table class="console-table" data-audit><caption class="visually-hidden">Changes, newest first</caption><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th>${withDate ? html`<th scope="col">Date</th>` : ''}</tr></thead><tbody>${trail.map(
    (r) =>
      html`<tr><td>${zoned(r.at)}</td><td>${r.who}</td><td>${r.action}${r.detail ? html`: ${r.detail}` : ''}</td>${withDate ? html`<td>${r.title ? `${r.title}, ${r.startsAt ? zoned(r.startsAt) : ''}` : ''}</td>` : ''}</tr>`,
  )}</tbody></table>`;
}
