/**
 * The queue page's script: the waiting room's flow (./flow.ts, the chart machines/waitingRoom run
 * without its library) with its calls, drawn into the page the server painted. No framework and no
 * schema library: the page only updates a sentence, a progress bar and a form, a few kilobytes in all.
 * The server paints a buyer's place itself (data-status): the script then asks again only when the
 * server said to.
 */
import type { QueueStatus } from '../../contract/waitingRoom';
import {
  QUEUE_CHALLENGE_PATH,
  queueEventsPath,
  queueJoinPath,
  queuePagePath,
  queueStatusPath,
  WAITING_LIST_PATH,
} from '../../contract/queuePage';
import { viewWaitingRoom } from '../../machines/waitingRoom/waitingRoom.connect';
import { runQueue } from './flow';
import { solveAside, type Challenge } from './proofOfWork';

const root = document.querySelector<HTMLElement>('[data-queue]')!;
const dateId = Number(root.dataset.queue);
const $ = <T extends Element>(selector: string) => root.querySelector<T>(selector)!;

async function call(
  url: string,
  body?: Record<string, string>,
): Promise<{ ok: boolean; status: number; data: unknown }> {
  const res = await fetch(url, {
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(body ? { method: 'POST', body: new URLSearchParams(body).toString() } : {}),
  });
  return { ok: res.ok, status: res.status, data: await res.json() };
}

async function json(url: string, body?: Record<string, string>): Promise<unknown> {
  const res = await call(url, body);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.data;
}

/** An answer the flow can go on from (contract/waitingRoom.ts has the full shape), else an error. */
function status(data: unknown): QueueStatus {
  const s = data as QueueStatus | null;
  if (!s || typeof s.state !== 'string' || typeof s.poll_ms !== 'number' || typeof s.event_url !== 'string')
    throw new Error('Not a queue status');
  return s;
}

/** A place whose time to buy has ended: the server's page says so (and offers a new place), so it is loaded again. */
function unlessEnded(s: QueueStatus): Promise<QueueStatus> {
  if (s.state !== 'ended') return Promise.resolve(s);
  window.location.replace(queuePagePath(dateId));
  return new Promise(() => {});
}

const message = $<HTMLElement>('[data-queue-message]');
const progress = $<HTMLProgressElement>('[data-queue-progress]');
const retry = $<HTMLElement>('[data-queue-retry]');
const list = $<HTMLElement>('[data-queue-list]');
const listForm = $<HTMLFormElement>('[data-waiting-list]');
const listMessage = $<HTMLElement>('[data-queue-list-message]');
const organiser = $<HTMLElement>('[data-organiser-message]');
const notify = $<HTMLFormElement>('[data-queue-notify]');
/** Once asked (the server's page marks the form), the form stays away. */
const notifyAsked = notify.dataset.asked !== undefined;
const organiserWords = organiser.querySelector('span')!;
const listButton = listForm.querySelector('button')!;

const flow = runQueue(
  {
    fetchStatus: async () => unlessEnded(status(await json(queueStatusPath(dateId)))),
    join: async () => {
      const challenge = (await json(QUEUE_CHALLENGE_PATH)) as Challenge;
      return unlessEnded(status(await json(queueJoinPath(dateId), { altcha: await solveAside(challenge) })));
    },
    joinWaitingList: async (input) => {
      // The waiting list asks for the same browser check as the queue's join.
      const challenge = (await json(QUEUE_CHALLENGE_PATH)) as Challenge;
      const altcha = await solveAside(challenge);
      const res = await call(WAITING_LIST_PATH, {
        ticket_type_id: String(input.ticketTypeId),
        email: input.email,
        quantity: String(input.quantity),
        altcha,
      });
      // A refusal in words (a bad address, too many, not sold out yet): the page says them.
      const refusal = (res.data as { error?: unknown } | null)?.error;
      if (res.status >= 400 && res.status < 500 && typeof refusal === 'string')
        return { joined: false, message: refusal };
      if (!res.ok) throw new Error(`waiting list answered ${res.status}`);
      const answer = res.data as { joined: boolean; message: string };
      return { joined: answer.joined === true, message: String(answer.message) };
    },
    enterShop: (url) => window.location.assign(url),
    after: (ms, then) => {
      const timer = setTimeout(then, ms);
      return () => clearTimeout(timer);
    },
  },
  (snapshot) => {
    if (snapshot.value.queue === 'waiting' || snapshot.value.queue === 'soldOut') listen();
    const view = viewWaitingRoom(snapshot);
    if (message.textContent !== view.message) message.textContent = view.message;
    progress.value = Math.round(view.progress * 100);
    retry.hidden = !view.canRetry;
    list.hidden = !view.offerWaitingList;
    listButton.disabled = view.listSending || view.listJoined;
    listForm.hidden = view.listJoined;
    listMessage.textContent = view.listMessage ?? '';
    notify.hidden = notifyAsked || !view.offerTurnMail;
    // The organiser's message as the last status had it: a change reaches open pages with the push's nudge.
    if (view.organiserMessage !== undefined) {
      organiser.hidden = !view.organiserMessage;
      if (organiserWords.textContent !== (view.organiserMessage ?? ''))
        organiserWords.textContent = view.organiserMessage ?? '';
    }
  },
  root.dataset.status ? status(JSON.parse(root.dataset.status)) : null,
);

/**
 * What the server pushes to a page with a place (server-sent events; EventSource reconnects by
 * itself, and a server that will not push answers 204, which ends it): 'sold out' as a status, and a
 * nudge to ask now, spread over the milliseconds it gives so that a crowd does not ask at once.
 */
let source: EventSource | null = null;
function listen() {
  if (source || typeof EventSource === 'undefined') return;
  source = new EventSource(queueEventsPath(dateId));
  source.addEventListener('status', (event) => {
    try {
      flow.pushed(status(JSON.parse((event as MessageEvent<string>).data)));
    } catch {
      // Not a status: the next poll answers instead.
    }
  });
  source.addEventListener('nudge', (event) => {
    const spread = Math.min(60_000, Number((event as MessageEvent<string>).data) || 0);
    setTimeout(() => flow.nudge(), Math.random() * spread);
  });
}

retry.querySelector('button')!.addEventListener('click', () => flow.retry());
listForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const data = new FormData(listForm);
  flow.joinWaitingList({
    ticketTypeId: Number(data.get('ticket_type_id')),
    email: String(data.get('email') ?? ''),
    quantity: Number(data.get('quantity') ?? 1) || 1,
  });
});
