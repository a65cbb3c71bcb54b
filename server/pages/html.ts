/** Plain server-rendered pages: one small inline stylesheet, no external assets. */

export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Marks text as already-escaped HTML. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Template tag: interpolations are escaped unless they are Html (or arrays of Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    const rendered = Array.isArray(v) ? v.map((x) => (x instanceof Html ? x.value : esc(x))).join('') : v instanceof Html ? v.value : v === null || v === undefined || v === false ? '' : esc(v);
    out += rendered + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f8fafc}
header{background:#0f172a;color:#fff;padding:.75rem 1rem;display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
header a{color:#fff;text-decoration:none}header .brand{font-weight:800;font-size:1.2rem;margin-right:auto}
main{max-width:960px;margin:0 auto;padding:1rem}h1{font-size:1.6rem;margin:.5rem 0 1rem}
a{color:#1d4ed8}.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(260px,1fr))}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:10px;overflow:hidden;display:flex;flex-direction:column}
.card img{width:100%;aspect-ratio:16/10;object-fit:cover;display:block}.card .body{padding:.75rem 1rem;flex:1}
.card h2{font-size:1.1rem;margin:0 0 .25rem}.muted{color:#64748b;font-size:.9rem}.price{font-weight:700}
table{width:100%;border-collapse:collapse;background:#fff}td,th{padding:.6rem;border-bottom:1px solid #e2e8f0;text-align:left;vertical-align:middle}
input[type=number]{width:4.5rem;padding:.35rem;font-size:1rem}select,input[type=email],input[type=text]{padding:.45rem;font-size:1rem;max-width:100%}
fieldset{border:0;padding:0;margin:0}button,.button{background:#1d4ed8;color:#fff;border:0;border-radius:8px;padding:.65rem 1.2rem;font-size:1rem;cursor:pointer;text-decoration:none;display:inline-block}
.notice{padding:.75rem 1rem;border-radius:8px;margin:0 0 1rem}.error{background:#fee2e2;color:#991b1b}.ok{background:#dcfce7;color:#166534}
.hero{display:flex;gap:1rem;flex-wrap:wrap;align-items:flex-start}.hero img{width:320px;max-width:100%;border-radius:10px}
footer{max-width:960px;margin:2rem auto;padding:1rem;color:#64748b;font-size:.85rem}
@media (max-width:600px){td,th{padding:.4rem}.hide-sm{display:none}}
`;

export function page(brand: string, title: string, body: Html): string {
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · ${esc(brand)}</title><style>${STYLE}</style></head><body>
<header><a class="brand" href="/all-events/">${esc(brand)}</a><a href="/all-events/">Events</a><a href="/checkout/">Basket</a><a href="/signin/">Sign in</a></header>
<main>${body.value}</main>
<footer><a href="/refund-policy/">Refund policy</a> · <a href="/legal-information/purchase-terms-and-conditions/">Purchase terms</a> · <a href="/mailing-list">Mailing list</a></footer>
</body></html>`;
}
