/**
 * The ticket wallet (/account/wallet/, linked from order completed): the signed-in buyer's
 * tickets, each with its QR code, event, date, venue, ticket type, seat and holder name.
 */
import type { FastifyInstance } from 'fastify';
import { WALLET_PATH } from '../../../contract/index.ts';
import { formatNiceDate } from '../../domain/format.ts';
import { walletOf } from '../../domain/tickets.ts';
import { findUser } from '../../domain/users.ts';
import type { AppDeps } from '../../http/deps.ts';
import { userIdOf } from '../../http/session.ts';
import { SIGN_OUT_EVERYWHERE_PATH } from './signOutEverywhere.ts';
import { Html, html } from '../../views/html.ts';
import { sitePage } from '../../http/sitePage.ts';
import { qrSvg } from '../../views/qrSvg.ts';
import { applePassSigner } from '../../domain/passes/apple.ts';
import { googleSaveJwt, googleSaveUrl, googleWalletSigner } from '../../domain/passes/google.ts';
import { passTicketOf } from '../../domain/passes/ticket.ts';
import { applePassPath } from './passes.ts';
import { ACCOUNT_PATH } from '../../../contract/delivery.ts';
import { t } from '../../../i18n/runtime.ts';

export function registerWallet(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;
  const pageFor = sitePage(deps);
  const apple = applePassSigner(deps.config.walletPasses.apple, deps.config.demo);
  const google = googleWalletSigner(deps.config.walletPasses.google, deps.config.demo);
  const origin = new URL(deps.config.publicUrl).origin;
  app.get(WALLET_PATH, async (request, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    const user = await findUser(db, userIdOf(request));
    if (!user) {
      return pageFor(
        request,
        t('page.wallet.title'),
        html`<h1>${t('page.wallet.title')}</h1>
          <p>${t('page.wallet.signInLead')}</p>
          <p><a class="button" href="/signin/?next=${encodeURIComponent(WALLET_PATH)}">${t('page.wallet.signIn')}</a></p>`,
      );
    }
    const list = await walletOf(db, user.id);
    // A save link per ticket, signed afresh for this page (it holds the ticket, for Google to keep).
    const googleLinks = new Map<string, string>();
    if (google) {
      for (const { code } of list) {
        const ticket = await passTicketOf(db, user.id, code);
        if (ticket)
          googleLinks.set(
            code,
            googleSaveUrl(google, googleSaveJwt(google, ticket, { origin, brandName: deps.config.brandName })),
          );
      }
    }
    return pageFor(
      request,
      t('page.wallet.title'),
      html`<h1>${t('page.wallet.title')}</h1>
      <p class="muted">${t('page.wallet.ticketsOf', { name: `${user.firstName} ${user.lastName}`, email: user.email })}${apple?.demo ? t('page.wallet.demoPasses') : ''}</p>
      <p><a class="inline-link" href="${ACCOUNT_PATH}">${t('page.wallet.myAccount')}</a>${t('page.wallet.myAccountRest')}</p>
      <div class="form-row">
        <form method="post" action="/signout/"><button class="button button--secondary" type="submit">${t('page.wallet.signOut')}</button></form>
        <form method="post" action="${SIGN_OUT_EVERYWHERE_PATH}"><button class="button button--secondary" type="submit">${t('page.wallet.signOutEverywhere')}</button></form>
      </div>
      ${
        list.length === 0
          ? html`<p>${t('page.wallet.noTickets')} <a class="inline-link" href="/all-events/">${t('page.wallet.findEvent')}</a></p>`
          : html`<ul class="wallet" role="list">${list.map(
              (ticket) => html`<li class="panel wallet-ticket" data-code="${ticket.code}">
              <div class="wallet-ticket__qr">${new Html(qrSvg(ticket.code, t('page.wallet.qr', { code: ticket.code })))}</div>
              <div class="wallet-ticket__info">
                <h2 class="wallet-ticket__event">${ticket.eventTitle}</h2>
                <dl class="wallet-ticket__facts">
                  <dt>${t('page.wallet.date')}</dt><dd>${formatNiceDate(ticket.startsAt)}</dd>
                  <dt>${t('page.wallet.venue')}</dt><dd>${ticket.venue}</dd>
                  <dt>${t('page.wallet.ticket')}</dt><dd>${ticket.ticketName}</dd>
                  <dt>${t('page.wallet.seat')}</dt><dd>${ticket.seat ?? t('mail.wallet.generalAdmission')}</dd>
                  <dt>${t('page.wallet.holder')}</dt><dd>${ticket.holderName}</dd>
                  <dt>${t('page.wallet.code')}</dt><dd class="wallet-ticket__code">${ticket.code}</dd>
                  ${ticket.saleReference ? html`<dt>${t('page.wallet.order')}</dt><dd>${ticket.saleReference}</dd>` : ''}
                </dl>
                ${
                  apple || googleLinks.has(ticket.code)
                    ? html`<div class="wallet-ticket__passes">
                  ${apple ? html`<a class="button button--secondary" href="${applePassPath(ticket.code)}" download>${t('page.wallet.apple')}<span class="visually-hidden">${t('page.wallet.passOf', { code: ticket.code })}</span></a>` : ''}
                  ${googleLinks.has(ticket.code) ? html`<a class="button button--secondary" href="${googleLinks.get(ticket.code)}">${t('page.wallet.google')}<span class="visually-hidden">${t('page.wallet.passOf', { code: ticket.code })}</span></a>` : ''}
                </div>`
                    : ''
                }
              </div>
            </li>`,
            )}</ul>`
      }`,
    );
  });
}
