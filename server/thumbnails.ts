/**
 * Event and voucher pictures drawn as tiny inline SVGs, so the catalogue never fetches an image
 * from elsewhere and a fresh database looks finished.
 */
export function thumbnail(
  label: string,
  from: string,
  to: string,
  motif: 'waves' | 'hills' | 'stars' | 'sun' | 'ticket',
): string {
  const shapes: Record<typeof motif, string> = {
    waves: '<path d="M0 70 Q20 60 40 70 T80 70 T120 70 T160 70 V100 H0Z" fill="#fff" opacity=".25"/>',
    hills: '<path d="M0 80 L40 45 L70 70 L105 35 L160 80 V100 H0Z" fill="#fff" opacity=".25"/>',
    stars:
      '<g fill="#fff" opacity=".6"><circle cx="20" cy="18" r="2"/><circle cx="60" cy="10" r="1.5"/><circle cx="130" cy="22" r="2"/><circle cx="100" cy="14" r="1"/></g>',
    sun: '<circle cx="128" cy="26" r="14" fill="#fff" opacity=".45"/>',
    ticket: '<rect x="96" y="12" width="48" height="28" rx="4" fill="#fff" opacity=".35"/>',
  };
  const text = label.replace(/[&<>"]/g, '');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="100" viewBox="0 0 160 100">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
    `<rect width="160" height="100" fill="url(#g)"/>${shapes[motif]}` +
    `<text x="12" y="90" font-family="system-ui,sans-serif" font-size="13" font-weight="700" fill="#fff">${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
