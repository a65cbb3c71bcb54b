/**
 * The local stand-in for hCaptcha, as an end-to-end process: its widget script (`/1/api.js`, which
 * the tests route the browser's request for https://js.hcaptcha.com/1/api.js to) and its
 * siteverify (`POST /siteverify`, which the hcaptcha server is pointed at with HCAPTCHA_API_BASE).
 *
 * The widget draws a checkbox 'I am human'; ticking it hands the page a token, as hCaptcha's own
 * widget does after its challenge; 'Let the check expire' calls the page's expiry callback; 'Pass
 * with a token siteverify refuses' hands the page a token as ticking does, one that siteverify
 * then refuses (as hCaptcha refuses a token it finds suspect or stale). siteverify answers success
 * for a token the box's tick made, once, with the right secret and sitekey.
 *
 * `npx tsx e2e/fakeHcaptcha.ts` runs it on FAKE_HCAPTCHA_PORT (else the port e2e/servers.ts gives
 * it) with FAKE_HCAPTCHA_SECRET and FAKE_HCAPTCHA_SITEKEY; GET /__fake/health answers once it listens.
 */
import { createServer } from 'node:http';
import { servers } from './servers.ts';

const secret = process.env.FAKE_HCAPTCHA_SECRET ?? '0x0000000000000000000000000000000000000000';
const sitekey = process.env.FAKE_HCAPTCHA_SITEKEY ?? '10000000-ffff-ffff-ffff-000000000001';
const used = new Set<string>();

/** The widget script: hCaptcha's explicit-render API, as far as @hcaptcha/react-hcaptcha uses it. */
export const WIDGET_SCRIPT = `(() => {
  const widgets = new Map();
  let next = 1;
  window.hcaptcha = {
    render(container, options) {
      const id = String(next++);
      const box = document.createElement('div');
      box.className = 'fake-hcaptcha';
      box.dataset.sitekey = options.sitekey;
      const label = document.createElement('label');
      const tick = document.createElement('input');
      tick.type = 'checkbox';
      label.append(tick, ' I am human');
      const expire = document.createElement('button');
      expire.type = 'button';
      expire.textContent = 'Let the check expire';
      const refused = document.createElement('button');
      refused.type = 'button';
      refused.textContent = 'Pass with a token siteverify refuses';
      box.append(label, expire, refused);
      container.append(box);
      const widget = { options, response: '', box };
      widgets.set(id, widget);
      tick.addEventListener('change', () => {
        if (!tick.checked) return;
        widget.response = 'e2e-pass-' + Math.random().toString(36).slice(2) + Date.now().toString(36);
        options.callback && options.callback(widget.response);
      });
      refused.addEventListener('click', () => {
        widget.response = 'e2e-refused-' + Math.random().toString(36).slice(2);
        tick.checked = true;
        options.callback && options.callback(widget.response);
      });
      expire.addEventListener('click', () => {
        widget.response = '';
        tick.checked = false;
        options['expired-callback'] && options['expired-callback']();
      });
      return id;
    },
    getResponse(id) { return widgets.get(String(id))?.response ?? ''; },
    getRespKey() { return ''; },
    reset(id) { const w = widgets.get(String(id)); if (w) { w.response = ''; const t = w.box.querySelector('input'); if (t) t.checked = false; } },
    remove(id) { const w = widgets.get(String(id)); if (w) { w.box.remove(); widgets.delete(String(id)); } },
    execute() { return undefined; },
    close() {},
    setData() {},
  };
  const onload = new URL(document.currentScript.src).searchParams.get('onload');
  if (onload && typeof window[onload] === 'function') window[onload]();
})();
`;

const port = Number(process.env.FAKE_HCAPTCHA_PORT ?? servers.fakeHcaptcha);
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'GET' && url.pathname === '/__fake/health') return void res.end('ok');
  if (req.method === 'GET' && url.pathname === '/1/api.js') {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'access-control-allow-origin': '*' });
    return void res.end(WIDGET_SCRIPT);
  }
  if (req.method === 'POST' && url.pathname === '/siteverify') {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const token = form.get('response') ?? '';
      const ok =
        form.get('secret') === secret &&
        form.get('sitekey') === sitekey &&
        token.startsWith('e2e-pass-') &&
        !used.has(token);
      if (ok) used.add(token);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          ok
            ? { success: true, hostname: '127.0.0.1' }
            : {
                success: false,
                'error-codes': [used.has(token) ? 'invalid-or-already-seen-response' : 'invalid-input-response'],
              },
        ),
      );
    });
    return;
  }
  res.writeHead(404).end();
});
server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
