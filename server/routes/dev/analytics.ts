/**
 * Demo mode's stand-in for Google's tag and Meta's pixel (/dev/analytics/): two small scripts that
 * read the same command queues as the real ones (`dataLayer`, `fbq`) and send each hit here instead
 * of to Google or Meta, and a page that lists the hits received, newest first. Hits are kept in
 * this process's memory only (the last 500).
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.ts';
import { html, page } from '../../views/html.ts';

interface Hit {
  at: Date;
  kind: 'google' | 'meta';
  params: Record<string, string>;
}

const KEPT = 500;
const hits: Hit[] = [];

/** Reads gtag's `dataLayer` as Google's tag does: `config` names a destination, `event` sends to each (or to `send_to`). */
const GTAG_STAND_IN = `(function () {
  var home = new URL('/dev/analytics/collect', document.currentScript.src).href;
  var layer = (window.dataLayer = window.dataLayer || []);
  var destinations = [];
  function send(query) {
    fetch(home + '?' + new URLSearchParams(query).toString(), { mode: 'no-cors', credentials: 'omit', keepalive: true });
  }
  function handle(command) {
    if (!command || typeof command.length !== 'number') return;
    if (command[0] === 'config' && destinations.indexOf(command[1]) < 0) destinations.push(command[1]);
    if (command[0] !== 'event') return;
    var params = command[2] || {};
    var to = params.send_to ? [].concat(params.send_to) : destinations;
    to.forEach(function (tid) {
      var query = { v: '2', tid: tid, en: command[1], dl: params.page_location || location.href, dt: params.page_title || document.title };
      Object.keys(params).forEach(function (key) {
        var value = params[key];
        if (key === 'send_to' || key === 'page_location' || key === 'page_title' || value === undefined) return;
        query[(typeof value === 'number' ? 'epn.' : 'ep.') + key] = typeof value === 'object' ? JSON.stringify(value) : String(value);
      });
      send(query);
    });
  }
  layer.forEach(handle);
  var push = layer.push;
  layer.push = function () {
    for (var i = 0; i < arguments.length; i++) handle(arguments[i]);
    return push.apply(layer, arguments);
  };
})();
`;

/** Reads the `fbq` queue as Meta's pixel does: `init` names a pixel, `track` sends an event to each. */
const PIXEL_STAND_IN = `(function () {
  var home = new URL('/dev/analytics/tr', document.currentScript.src).href;
  var fbq = window.fbq;
  if (!fbq) return;
  var pixels = [];
  function handle(args) {
    if (args[0] === 'init' && pixels.indexOf(args[1]) < 0) pixels.push(args[1]);
    if (args[0] !== 'track') return;
    pixels.forEach(function (id) {
      var query = { id: id, ev: args[1], dl: location.href };
      var data = args[2] || {};
      Object.keys(data).forEach(function (key) { query['cd[' + key + ']'] = String(data[key]); });
      fetch(home + '?' + new URLSearchParams(query).toString(), { mode: 'no-cors', credentials: 'omit', keepalive: true });
    });
  }
  fbq.callMethod = function () { handle(arguments); };
  (fbq.queue || []).forEach(handle);
  fbq.queue = [];
})();
`;

function record(kind: Hit['kind'], query: unknown): void {
  const params = Object.fromEntries(
    Object.entries((query ?? {}) as Record<string, unknown>)
      .filter(([, v]) => typeof v === 'string')
      .map(([k, v]) => [k.slice(0, 100), (v as string).slice(0, 500)]),
  );
  hits.unshift({ at: new Date(), kind, params });
  hits.length = Math.min(hits.length, KEPT);
}

export function registerAnalyticsStandIn(app: FastifyInstance, deps: AppDeps): void {
  const script = (body: string) => async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(body);
  app.get('/dev/analytics/gtag/js', script(GTAG_STAND_IN));
  app.get('/dev/analytics/fbevents.js', script(PIXEL_STAND_IN));
  app.get('/dev/analytics/collect', async (request, reply) => {
    record('google', request.query);
    return reply.status(204).header('cross-origin-resource-policy', 'cross-origin').send();
  });
  app.get('/dev/analytics/tr', async (request, reply) => {
    record('meta', request.query);
    return reply.status(204).header('cross-origin-resource-policy', 'cross-origin').send();
  });
  app.get('/dev/analytics', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return reply.type('text/html; charset=utf-8').send(
      page(
        deps.config,
        'Analytics',
        html`<h1>Analytics</h1>
        <p class="muted">What the checkout sent to Google's tag and Meta's pixel after a buyer accepted analytics cookies, newest first. This development server stands in for both.</p>
        ${
          hits.length === 0
            ? html`<p>No hits yet.</p>`
            : html`<ol class="mailbox" role="list">${hits.map(
                (
                  h,
                ) => html`<li class="panel"><p><strong>${h.kind === 'google' ? `Google ${h.params.tid ?? ''}: ${h.params.en ?? ''}` : `Meta ${h.params.id ?? ''}: ${h.params.ev ?? ''}`}</strong> · ${h.at.toISOString()}</p>
                <pre class="mail__body">${Object.entries(h.params)
                  .map(([k, v]) => `${k}=${v}`)
                  .join('\n')}</pre></li>`,
              )}</ol>`
        }`,
      ),
    );
  });
}
