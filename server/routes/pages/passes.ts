/**
 * Tickets in the phone's wallet: the Apple Wallet pass of one of the signed-in buyer's tickets
 * (/account/wallet/passes/<code>.pkpass; anyone else's code, or none, is not found), and in demo
 * mode the stand-in for Google's save page, which checks a save link's JWT as Google would and
 * shows the ticket it saves.
 */
import type { FastifyInstance } from 'fastify';
import { WALLET_PATH } from '../../../contract/index.ts';
import { formatNiceDate } from '../../domain/format.ts';
import { applePass, applePassSigner, PKPASS_TYPE } from '../../domain/passes/apple.ts';
import { GOOGLE_STAND_IN_PATH, readDemoSaveJwt } from '../../domain/passes/google.ts';
import { passTicketOf, TICKET_CODE } from '../../domain/passes/ticket.ts';
import type { AppDeps } from '../../http/deps.ts';
import { userIdOf } from '../../http/session.ts';
import { sitePage } from '../../http/sitePage.ts';
import { html, Html } from '../../views/html.ts';
import { qrSvg } from '../../views/qrSvg.ts';
import { t } from '../../../i18n/runtime.ts';

export const PASS_PATH_PREFIX = `${WALLET_PATH}passes/`;
export const applePassPath = (code: string) => `${PASS_PATH_PREFIX}${encodeURIComponent(code)}.pkpass`;

export function registerPasses(app: FastifyInstance, deps: AppDeps): void {
  const { db, config } = deps;
  const pageFor = sitePage(deps);
  const signer = applePassSigner(config.walletPasses.apple, config.demo);

  app.get<{ Params: { file: string } }>(`${PASS_PATH_PREFIX}:file`, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const code = /^(.+)\.pkpass$/.exec(request.params.file)?.[1];
    const userId = userIdOf(request);
    const ticket = code && TICKET_CODE.test(code) && userId !== null ? await passTicketOf(db, userId, code) : null;
    if (!signer || !ticket) {
      return reply
        .status(404)
        .type('text/html; charset=utf-8')
        .send(
          await pageFor(
            request,
            t('page.passes.notFound'),
            html`<h1>${t('page.passes.notFound')}</h1><p>${signer ? t('page.passes.notYours') : t('page.passes.notSetUp')}</p>
          <p><a class="inline-link" href="${WALLET_PATH}">${t('page.passes.goToWallet')}</a></p>`,
          ),
        );
    }
    return reply
      .type(PKPASS_TYPE)
      .header('content-disposition', `attachment; filename="${ticket.code}.pkpass"`)
      .send(applePass(signer, ticket, config.brandName));
  });

  if (!config.demo) return;
  // A wildcard: the token is longer than a route parameter may be.
  app.get<{ Params: { '*': string } }>(`${GOOGLE_STAND_IN_PATH}*`, async (request, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const token = request.params['*'];
    const saved = token.length <= 8000 ? readDemoSaveJwt(token) : null;
    const object = saved?.eventTicketObjects[0];
    const eventClass = saved?.eventTicketClasses[0];
    if (!object || !eventClass) {
      return reply
        .status(400)
        .send(
          await pageFor(
            request,
            t('page.passes.notSaved'),
            html`<h1>${t('page.passes.cannotSave')}</h1><p class="notice error" role="alert">${t('page.passes.badLink')}</p>`,
          ),
        );
    }
    return pageFor(
      request,
      t('page.passes.standInTitle'),
      html`<h1>${t('page.passes.saved')}</h1>
      <p class="notice ok" role="status">${t('page.passes.standInNote')}</p>
      <ul class="wallet" role="list"><li class="panel wallet-ticket">
        <div class="wallet-ticket__qr">${new Html(qrSvg(object.barcode.value, t('page.wallet.qr', { code: object.barcode.value })))}</div>
        <div class="wallet-ticket__info">
          <h2 class="wallet-ticket__event">${eventClass.eventName.defaultValue.value}</h2>
          <dl class="wallet-ticket__facts">
            <dt>${t('page.wallet.date')}</dt><dd>${formatNiceDate(new Date(eventClass.dateTime.start))}</dd>
            <dt>${t('page.wallet.venue')}</dt><dd>${eventClass.venue.name.defaultValue.value}</dd>
            <dt>${t('page.wallet.ticket')}</dt><dd>${object.ticketType.defaultValue.value}</dd>
            <dt>${t('page.wallet.seat')}</dt><dd>${'seatInfo' in object && object.seatInfo ? object.seatInfo.seat.defaultValue.value : t('mail.wallet.generalAdmission')}</dd>
            <dt>${t('page.wallet.holder')}</dt><dd>${object.ticketHolderName}</dd>
            <dt>${t('page.wallet.code')}</dt><dd class="wallet-ticket__code">${object.barcode.value}</dd>
          </dl>
        </div>
      </li></ul>
      <p><a class="inline-link" href="${WALLET_PATH}">${t('page.passes.backToWallet')}</a></p>`,
    );
  });
}
