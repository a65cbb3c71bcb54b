/**
 * The queue page's script: the waiting room chart (machines/waitingRoom) with its calls, drawn into
 * the server's shell. No framework: the page only updates a sentence, a progress bar and a form.
 */
import { createActor, fromPromise } from 'xstate';
import { waitingRoomMachine, type WaitingListRequest } from '../../machines/waitingRoom/waitingRoom.machine';
import { viewWaitingRoom } from '../../machines/waitingRoom/waitingRoom.connect';
import { QUEUE_CHALLENGE_PATH, queueJoinPath, queueStatus, queueStatusPath, WAITING_LIST_PATH, waitingListAnswer } from '../../contract/waitingRoom';
import { solveAside, type Challenge } from './proofOfWork';

const root = document.querySelector<HTMLElement>('[data-queue]')!;
const dateId = Number(root.dataset.queue);
const $ = <T extends Element>(selector: string) => root.querySelector<T>(selector)!;

async function call(url: string, body?: Record<string, string>): Promise<{ ok: boolean; status: number; data: unknown }> {
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

const actor = createActor(
  waitingRoomMachine.provide({
    actors: {
      fetchStatus: fromPromise(async () => queueStatus.parse(await json(queueStatusPath(dateId)))),
      join: fromPromise(async () => {
        const challenge = (await json(QUEUE_CHALLENGE_PATH)) as Challenge;
        return queueStatus.parse(await json(queueJoinPath(dateId), { altcha: await solveAside(challenge) }));
      }),
      joinWaitingList: fromPromise(async ({ input }: { input: WaitingListRequest }) => {
        const res = await call(WAITING_LIST_PATH, { ticket_type_id: String(input.ticketTypeId), email: input.email, quantity: String(input.quantity) });
        if (res.status === 400) return { joined: false, message: String((res.data as { error?: unknown }).error ?? '') };
        if (!res.ok) throw new Error(`waiting list answered ${res.status}`);
        return waitingListAnswer.parse(res.data);
      }),
    },
    actions: {
      enterShop: (_, params) => window.location.assign(params.url),
    },
  }),
);

const message = $<HTMLElement>('[data-queue-message]');
const progress = $<HTMLProgressElement>('[data-queue-progress]');
const retry = $<HTMLElement>('[data-queue-retry]');
const list = $<HTMLElement>('[data-queue-list]');
const listForm = $<HTMLFormElement>('[data-waiting-list]');
const listMessage = $<HTMLElement>('[data-queue-list-message]');

actor.subscribe((snapshot) => {
  const view = viewWaitingRoom(snapshot);
  if (message.textContent !== view.message) message.textContent = view.message;
  progress.value = Math.round(view.progress * 100);
  retry.hidden = !view.canRetry;
  list.hidden = !view.offerWaitingList;
  const button = listForm.querySelector('button')!;
  button.disabled = view.listSending || view.listJoined;
  listForm.hidden = view.listJoined;
  listMessage.textContent = view.listMessage ?? '';
});

retry.querySelector('button')!.addEventListener('click', () => actor.send({ type: 'RETRY_CLICKED' }));
listForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const data = new FormData(listForm);
  actor.send({
    type: 'WAITING_LIST_SUBMITTED',
    ticketTypeId: Number(data.get('ticket_type_id')),
    email: String(data.get('email') ?? ''),
    quantity: Number(data.get('quantity') ?? 1) || 1,
  });
});
actor.start();
