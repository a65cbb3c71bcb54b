/**
 * The seat map with 5,000 seats in headless Chromium: the time from navigation to the whole map
 * drawn (every seat a focusable control), and from a seat press to its selected state (the hold's
 * reply is answered at once, so the figure is the page's own work). Beside them, the floor: the
 * same 5,000 SVG circles drawn by a plain script in the same browser. Uses the built app
 * (dist/client, as `benchBundle` leaves it); the seat calls are answered by the bench.
 *
 *   npx tsx bench/seatMap.ts
 */
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from '@playwright/test';

const DIST = 'dist/client';
const SECTIONS = 4;
const ROWS = 25;
const PER_ROW = 50;
const PRESSES = 15;

function plan() {
  let id = 0;
  const sections = Array.from({ length: SECTIONS }, (_, s) => ({
    name: `Section ${String.fromCharCode(65 + s)}`,
    rows: Array.from({ length: ROWS }, (_, r) => ({
      name: String(r + 1),
      seats: Array.from({ length: PER_ROW }, (_, n) => ({
        id: ++id,
        number: String(n + 1),
        position: n + (n >= PER_ROW / 2 ? 1 : 0),
        x: 40 + (n + (n >= PER_ROW / 2 ? 1 : 0)) * 28,
        y: 80 + (s * (ROWS + 2) + r) * 30,
        ticket_type_id: 1 + (r % 3),
        status: (n % 17 === 5 ? 'taken' : 'available') as 'taken' | 'available',
      })),
    })),
  }));
  return {
    seating_plan_layout: {
      seating_plan_provider: { provider: 'holdfast', public_key: null, region: null },
      width: 40 + (PER_ROW + 1) * 28 + 40,
      height: 80 + SECTIONS * (ROWS + 2) * 30 + 40,
      sections,
    },
    seating_plan_event: {
      provider_identifier: 'bench',
      pricing: [
        { ticket_type_id: 1, ticket_name: 'Premium', price: 4500 },
        { ticket_type_id: 2, ticket_name: 'Standard', price: 2500 },
        { ticket_type_id: 3, ticket_name: 'Saver', price: 1500 },
      ],
      hold: { hold_token: null, seconds_remaining: 0, seat_ids: [] as number[] },
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

function staticServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0]!;
    const file = url.startsWith('/events/book_seats/') ? 'seats.html' : normalize(url).replace(/^\/+/, '');
    const full = join(DIST, file);
    if (!full.startsWith(DIST) || !existsSync(full)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(full)] ?? 'application/octet-stream' }).end(readFileSync(full));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function benchSeatMap(): Promise<void> {
  if (!existsSync(join(DIST, 'seats.html'))) throw new Error('Build the app first (npm run build)');
  const server = await staticServer();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  const browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const body = JSON.stringify(plan());
    await page.route('**/get_event_date/**', (route) =>
      route.fulfill({
        json: {
          event_date: {
            id: 1,
            event_id: 1,
            starts_at: '2026-12-21T19:30:00.000Z',
            nice_date: 'Mon, 21 Dec 2026, 7:30 pm',
          },
          event: {
            id: 1,
            title: 'A 5,000-seat arena',
            venue: 'Bench Arena',
            currency: { symbol: '£', code: 'GBP' },
            url: '/event/1/',
          },
        },
      }),
    );
    await page.route('**/get_current_seating_plan/**', (route) =>
      route.fulfill({ body, contentType: 'application/json' }),
    );
    // The hold is answered inside the page, at once: the figure is the page's own work, not the bench's plumbing.
    await page.addInitScript(() => {
      const held: number[] = [];
      const real = window.fetch.bind(window);
      window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = input instanceof Request ? input : new Request(input, init);
        if (!request.url.includes('/hold_seats/')) return real(input, init);
        held.push(Number(new URLSearchParams(await request.text()).get('seats[0]')));
        return new Response(
          JSON.stringify({ hold_token: 'b'.repeat(32), seconds_remaining: 900, seat_ids: [...held] }),
          { headers: { 'content-type': 'application/json' } },
        );
      };
    });
    await page.goto(`${base}/events/book_seats/1/`);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-seat]').length === n,
      SECTIONS * ROWS * PER_ROW,
      { timeout: 60_000 },
    );
    // Two frames later the map is painted.
    const firstRender = await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))),
        ),
    );

    const presses: number[] = [];
    for (let i = 0; i < PRESSES; i++) {
      // The first seat of a different row each time: no rule refuses it.
      const id = 1 + (i * 3 + 1) * PER_ROW;
      presses.push(
        await page.evaluate(
          (seatId) =>
            new Promise<number>((resolve) => {
              const el = document.querySelector(`[data-seat="${seatId}"]`)!;
              const start = performance.now();
              const observer = new MutationObserver(() => {
                if (el.getAttribute('aria-checked') === 'true') {
                  observer.disconnect();
                  requestAnimationFrame(() => resolve(performance.now() - start));
                }
              });
              observer.observe(el, { attributes: true, attributeFilter: ['aria-checked'] });
              el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
            }),
          id,
        ),
      );
    }

    // The floor: 5,000 circles drawn by a plain script, in the same browser.
    const floorPage = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await floorPage.setContent('<svg id="s" viewBox="0 0 1500 3300" width="1000" height="2200"></svg>');
    const floor = await floorPage.evaluate(
      (count) =>
        new Promise<number>((resolve) => {
          const start = performance.now();
          const svg = document.getElementById('s')!;
          for (let i = 0; i < count; i++) {
            const c = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
            c.setAttribute('cx', String(40 + (i % 50) * 28));
            c.setAttribute('cy', String(80 + Math.floor(i / 50) * 30));
            c.setAttribute('r', '10');
            c.setAttribute('tabindex', '-1');
            svg.appendChild(c);
          }
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)));
        }),
      SECTIONS * ROWS * PER_ROW,
    );

    console.log('\n## Seat map, 5,000 seats (headless Chromium)');
    console.log(`time to first render (navigation to the whole map drawn): ${firstRender.toFixed(0)} ms`);
    console.log(
      `seat press to its selected state: median ${median(presses).toFixed(1)} ms, worst ${Math.max(...presses).toFixed(1)} ms (${PRESSES} presses)`,
    );
    console.log(
      `floor (5,000 plain SVG circles by a script, same browser): ${floor.toFixed(0)} ms; press-to-selected ÷ 16.7 ms frame: ${(median(presses) / 16.7).toFixed(2)}`,
    );
  } finally {
    await browser.close();
    server.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  await benchSeatMap();
}
