/**
 * The charity's Gift Aid download: a page where the charity types its download token, and the CSV
 * of its declarations in HMRC's Gift Aid schedule columns. The token travels in a POST body or an
 * `Authorization: Bearer` header, never in an address that logs and browser histories keep.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import { charityForToken, giftAidSchedule, scheduleCsv } from '../../domain/giftAid.ts';
import type { AppDeps } from '../../http/deps.ts';
import { html, page } from '../../views/html.ts';

export const GIFT_AID_PAGE = '/charity/gift-aid/';
export const GIFT_AID_CSV = '/charity/gift-aid/declarations.csv';
export const WRONG_TOKEN_MESSAGE = 'That download token is not one we know. Please check it and try again.';

const tokenForm = z.object({ token: z.string().check(z.maxLength(200)) });

export function registerGiftAidDownload(app: FastifyInstance, deps: AppDeps): void {
  const { db, config } = deps;

  const form = (reply: FastifyReply, error: string | null, status = 200) =>
    reply
      .status(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        page(
          config.brandName,
          'Gift Aid declarations',
          html`<h1>Gift Aid declarations</h1>
          <p>Download your charity’s Gift Aid declarations as a CSV file in the columns of HMRC’s Gift Aid schedule, ready to paste into the Charities Online spreadsheet.</p>
          ${error ? html`<p class="notice error" role="alert">${error}</p>` : ''}
          <form method="post" action="${GIFT_AID_CSV}" class="panel">
            <label class="field">Download token <input class="input" type="password" name="token" required autocomplete="off" spellcheck="false"></label>
            <button class="button" type="submit">Download CSV</button>
          </form>`,
        ),
      );

  async function download(reply: FastifyReply, charity: { id: number; name: string }) {
    const csv = scheduleCsv(await giftAidSchedule(db, charity.id));
    const filename = `gift-aid-${charity.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')}.csv`;
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .type('text/csv; charset=utf-8')
      .send(csv);
  }

  app.get(GIFT_AID_PAGE, async (_request, reply) => form(reply, null));

  app.post(GIFT_AID_CSV, async (request, reply) => {
    const parsed = tokenForm.safeParse(request.body ?? {});
    const charity = parsed.success ? await charityForToken(db, parsed.data.token) : null;
    return charity ? download(reply, charity) : form(reply, WRONG_TOKEN_MESSAGE, 403);
  });

  app.get(GIFT_AID_CSV, async (request: FastifyRequest, reply) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const charity = bearer ? await charityForToken(db, bearer) : null;
    if (!charity) return reply.status(401).header('www-authenticate', 'Bearer').send({ error: WRONG_TOKEN_MESSAGE });
    return download(reply, charity);
  });
}
