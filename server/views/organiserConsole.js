// The organiser's console: asks the date's live.json every few seconds and redraws the figures
// and the chart the server drew. Served from this site (script-src 'self'); buyers' pages never load it.
// @ts-check
(() => {
  const live = document.querySelector('[data-live]');
  if (!live) return;
  const url = live.getAttribute('data-live');
  const tiles = live.querySelector('[data-tiles]');
  const chart = live.querySelector('[data-chart]');
  const status = live.querySelector('[data-live-status]');
  if (!url || !tiles || !chart || !status) return;
  const EVERY_MS = 3000;
  const parse = (markup) =>
    new DOMParser().parseFromString(`<body>${markup}</body>`, 'text/html').body.firstElementChild;
  let failures = 0;
  async function refresh() {
    try {
      const res = await fetch(url, {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
        cache: 'no-store',
      });
      if (!res.ok) throw new Error(String(res.status));
      const data = await res.json();
      const nextTiles = parse(data.tiles);
      const nextChart = parse(data.chart);
      if (nextTiles) tiles.replaceChildren(...nextTiles.childNodes);
      if (nextChart) chart.replaceChildren(document.importNode(nextChart, true));
      status.textContent = data.updated;
      failures = 0;
    } catch {
      failures += 1;
      status.textContent = 'The live figures could not be updated; trying again.';
    }
    if (document.visibilityState !== 'hidden' || failures === 0)
      setTimeout(refresh, EVERY_MS * Math.min(4, 1 + failures));
    else document.addEventListener('visibilitychange', () => setTimeout(refresh, 0), { once: true });
  }
  setTimeout(refresh, EVERY_MS);
})();
