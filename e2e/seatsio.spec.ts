/**
 * The seat page with seats.io keyed (the seatsio server, its plans seats.io's), in a real browser
 * under the page policy: seats.io's chart is drawn for the plan's event key, and what it selects
 * and holds fills 'Selected Seats:', the total and 'Add To Basket!', whose seats the server checks
 * at seats.io before they go in the basket. The browser cannot reach seats.io: its chart.js is a
 * small stand-in served in its place (a button per seat, holding through seats.io's API as the
 * chart does), and its API is the local stand-in the server's SDK is keyed against.
 */
import type { Page } from '@playwright/test';
import { expect, test, urls } from './support.ts';
import { servers } from './servers.ts';

const EVENT = 'Twelfth Night at the Harbour Playhouse';
const BASE = `http://127.0.0.1:${servers.seatsio}`;
const FAKE = `http://127.0.0.1:${servers.fakeSeatsio}`;
const AUTH = `Basic ${Buffer.from('sk-e2e-seatsio-secret:').toString('base64')}`;
const LABELS = ['Stalls-B-1', 'Stalls-B-2', 'Stalls-B-3'];

/** seats.io's chart.js as far as the seat page uses it: `seatsio.SeatingChart(config).render()` and its callbacks. */
const CHART_JS = `
(() => {
  const API = 'https://api-eu.seatsio.net';
  const call = (path, body) => fetch(API + path, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) })
    .then((r) => r.json().then((json) => ({ ok: r.ok, json })));
  class SeatingChart {
    constructor(config) { this.config = config; this.state = 'INITIAL'; }
    render() {
      const c = this.config;
      call('/hold-tokens', {}).then(({ json }) => {
        if (this.state === 'DESTROYED') return;
        this.token = json.holdToken;
        c.onSessionInitialized && c.onSessionInitialized({ token: json.holdToken, expiresAt: json.expiresAt, expiresInSeconds: json.expiresInSeconds });
        const root = document.createElement('div');
        root.setAttribute('role', 'group');
        root.setAttribute('aria-label', 'seats.io chart for ' + c.event + ' with ' + c.workspaceKey);
        for (const label of ${JSON.stringify(LABELS)}) {
          const b = document.createElement('button');
          b.type = 'button';
          b.textContent = label;
          b.setAttribute('aria-pressed', 'false');
          b.onclick = () => this.toggle(label, b);
          root.appendChild(b);
        }
        c.container.appendChild(root);
        this.state = 'RENDERED';
      });
      return this;
    }
    toggle(label, button) {
      const c = this.config;
      const [section, row, own] = label.split('-');
      const object = { label, labels: { own, parent: row, section, displayedLabel: label } };
      const selecting = button.getAttribute('aria-pressed') !== 'true';
      c.onHoldCallsInProgress && c.onHoldCallsInProgress();
      call('/events/groups/actions/change-object-status?expand=objects', {
        type: selecting ? 'CHANGE_STATUS_TO' : 'RELEASE', status: selecting ? 'reservedByToken' : undefined,
        holdToken: this.token, events: [c.event], objects: [{ objectId: label }],
      }).then(({ ok }) => {
        if (ok) {
          button.setAttribute('aria-pressed', String(selecting));
          (selecting ? c.onObjectSelected : c.onObjectDeselected)(object, undefined);
        } else {
          (selecting ? c.onHoldFailed : c.onReleaseHoldFailed)([object], []);
        }
        c.onHoldCallsComplete && c.onHoldCallsComplete();
      });
    }
    destroy() { this.state = 'DESTROYED'; this.config.container.replaceChildren(); }
  }
  window.seatsio = { SeatingChart };
})();
`;

/** The browser's seats.io: the chart.js stand-in, and seats.io's API answered by the local stand-in. */
async function routeSeatsio(page: Page): Promise<void> {
  await page.route('https://cdn-eu.seatsio.net/chart.js', (route) =>
    route.fulfill({ contentType: 'application/javascript', body: CHART_JS }),
  );
  await page.route('https://api-eu.seatsio.net/**', async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const answer = await fakeCall(request.method(), url.pathname + url.search, request.postData() ?? undefined);
    await route.fulfill({
      status: answer.status,
      contentType: 'application/json',
      headers: { 'access-control-allow-origin': '*' },
      body: answer.body,
    });
  });
}

async function fakeCall(method: string, path: string, body?: string) {
  const res = await fetch(FAKE + path, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    ...(body ? { body } : {}),
  });
  return { status: res.status, body: await res.text() };
}

test.use({ baseURL: BASE });

test('with seats.io keyed, the seat page draws seats.io’s chart, and what it holds is listed, totalled and added to the basket', async ({
  page,
}) => {
  await routeSeatsio(page);
  await page.goto('/all-events/');
  await page.getByRole('link', { name: EVENT }).first().click();
  await page.getByRole('link', { name: /^Choose your seats for/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: EVENT })).toBeVisible();
  const date = /\/events\/book_seats\/(\d+)\/$/.exec(page.url())![1];
  const eventKey = `harbour-playhouse-${date}`;

  // Another buyer holds B3 at seats.io already.
  const other = JSON.parse((await fakeCall('POST', '/hold-tokens', '{}')).body) as { holdToken: string };
  const held = await fakeCall(
    'POST',
    '/events/groups/actions/change-object-status',
    JSON.stringify({
      type: 'CHANGE_STATUS_TO',
      status: 'reservedByToken',
      holdToken: other.holdToken,
      events: [eventKey],
      objects: [{ objectId: 'Stalls-B-3' }],
    }),
  );
  expect(held.status).toBe(200);

  const chart = page.getByRole('group', { name: `seats.io chart for ${eventKey} with pk-e2e-seatsio-public` });
  await expect(chart).toBeVisible();
  // seats.io's chart replaces our map, its modes and its legend.
  await expect(page.getByRole('group', { name: 'Show the seats as' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Zoom in' })).toHaveCount(0);
  const add = page.getByRole('button', { name: 'Add To Basket!' });
  await expect(add).toBeDisabled();

  const selected = page.getByRole('complementary', { name: 'Selected Seats:' });
  await chart.getByRole('button', { name: 'Stalls-B-1' }).click();
  await chart.getByRole('button', { name: 'Stalls-B-2' }).click();
  await expect(selected.getByRole('listitem')).toHaveText([
    /Stalls-B-1\s*£32\.50\s*Stalls premium/,
    /Stalls-B-2\s*£32\.50\s*Stalls premium/,
  ]);
  await expect(selected).toContainText('Total £65');
  await expect(add).toBeEnabled();

  await chart.getByRole('button', { name: 'Stalls-B-3' }).click();
  await expect(page.locator('.seat-page__notes')).toHaveText('Stalls, row B, seat 3 is taken by another buyer.');
  await expect(selected.getByRole('listitem')).toHaveCount(2);

  await add.click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  const line = page.locator('[data-step="basket"]').getByRole('listitem').filter({ hasText: 'Stalls premium' }).first();
  await expect(line).toContainText('Stalls, row B, seat 1');
  await expect(line).toContainText('Stalls, row B, seat 2');
  // Added because seats.io holds them under the chart's token (the server asked it); they are still held.
  const objects = JSON.parse(
    (await fakeCall('GET', `/events/${eventKey}/objects?label=Stalls-B-1&label=Stalls-B-2`)).body,
  ) as Record<string, { status: string }>;
  expect(Object.values(objects).map((o) => o.status)).toEqual(['reservedByToken', 'reservedByToken']);
});

test('without seats.io keys the seat page draws our own map, and fetches neither seats.io’s chart component nor anything of seats.io', async ({
  page,
}) => {
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(request.url()));
  await page.goto(`${urls.main}/all-events/`);
  await page.getByRole('link', { name: EVENT }).first().click();
  await page.getByRole('link', { name: /^Choose your seats for/ }).click();
  await expect(page.getByRole('group', { name: 'Show the seats as' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Zoom in' })).toBeVisible();
  expect(fetched.filter((url) => /seatsio/i.test(url))).toEqual([]);
});
