/**
 * The console's live chart, drawn as SVG of our own on the server: one line per figure over the
 * last ten minutes, on one scale, with its key beside it as text. Presentation attributes only (no
 * style attributes), so the page's strict policy needs nothing more.
 */
import type { Sample } from '../domain/organiser/dashboard.ts';
import { esc } from './html.ts';

export const SERIES = [
  { key: 'waiting', label: 'Queue length', colour: '#1d4ed8' },
  { key: 'admitted', label: 'Admitted in the last minute', colour: '#b45309' },
  { key: 'shoppers', label: 'Shoppers in', colour: '#047857' },
  { key: 'sold', label: 'Sold', colour: '#6d28d9' },
] as const;

const W = 600;
const H = 200;
const PAD = { left: 40, right: 8, top: 10, bottom: 22 };

/** Each sample's figures, with how many were let in during the minute before it (as the tile counts them). */
function pointsOf(samples: Sample[]): Record<(typeof SERIES)[number]['key'], number>[] {
  return samples.map((s) => {
    const before = samples.findLast((b) => s.at.getTime() - b.at.getTime() >= 60_000) ?? samples[0]!;
    return {
      waiting: s.waiting,
      admitted: Math.max(0, s.admittedThrough - before.admittedThrough),
      shoppers: s.shoppers,
      sold: s.sold,
    };
  });
}

/** The span the chart shows: since its first sample, from two minutes up to `maxMs`. */
export function spanOf(samples: Sample[], now: Date, maxMs: number): number {
  const first = samples[0];
  return Math.min(maxMs, Math.max(2 * 60_000, first ? now.getTime() - first.at.getTime() : 0));
}

export function chartSvg(samples: Sample[], now: Date, maxMs: number): string {
  const spanMs = spanOf(samples, now, maxMs);
  const points = pointsOf(samples);
  const max = Math.max(4, ...points.flatMap((p) => SERIES.map((s) => p[s.key])));
  const top = Math.ceil(max / 4) * 4;
  const x = (at: Date) => PAD.left + ((at.getTime() - (now.getTime() - spanMs)) / spanMs) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom);
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map((f) => {
      const v = Math.round(top * f);
      return `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#cbd5e1" stroke-width="1"/><text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" font-size="11" fill="#475569">${v}</text>`;
    })
    .join('');
  const minutes = Math.round(spanMs / 60_000);
  const axis = `<text x="${PAD.left}" y="${H - 6}" font-size="11" fill="#475569">${minutes} minutes ago</text><text x="${W - PAD.right}" y="${H - 6}" font-size="11" fill="#475569" text-anchor="end">now</text>`;
  const lines = SERIES.map((s) => {
    if (points.length === 0) return '';
    const path = points.map((p, i) => `${x(samples[i]!.at).toFixed(1)},${y(p[s.key]).toFixed(1)}`).join(' ');
    return `<polyline data-series="${s.key}" points="${path}" fill="none" stroke="${s.colour}" stroke-width="2.5" stroke-linejoin="round"/>`;
  }).join('');
  const last = points.at(-1);
  const summary = last
    ? `The last ${minutes} minutes: ${SERIES.map((s) => `${s.label.toLowerCase()} now ${last[s.key]}`).join(', ')}.`
    : `Nothing to chart yet: the chart starts when the console is open.`;
  return `<svg class="console-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(summary)}" data-samples="${samples.length}" focusable="false"><title>${esc(summary)}</title>${grid}${axis}${lines}</svg>`;
}

/** The chart's key, as a list beside it. */
export function chartKey(): string {
  return `<ul class="console-key" role="list">${SERIES.map((s) => `<li><svg width="14" height="14" aria-hidden="true" focusable="false"><rect width="14" height="14" rx="3" fill="${s.colour}"/></svg> ${esc(s.label)}</li>`).join('')}</ul>`;
}
