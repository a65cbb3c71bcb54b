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
        'Ticket wallet',
        html`<h1>Ticket wallet</h1>
          <p>Sign in to see your tickets. We e-mail you a one-time code.</p>
          <p><a class="button" href="/signin/?next=${encodeURIComponent(WALLET_PATH)}">Sign in</a></p>`,
      );
    }
    const list = await walletOf(db, user.id);
    // A save link per ticket, signed afresh for this page (it holds the ticket, for Google to keep).
    const googleLinks = new Map<string, string>();
    if (google) {
      for (const t of list) {
        const ticket = await passTicketOf(db, user.id, t.code);
        if (ticket) googleLinks.set(t.code, googleSaveUrl(google, googleSaveJwt(google, ticket, { origin, brandName: deps.config.brandName })));
      }
    }
    return pageFor(
      request,
      'Ticket wallet',
      html`<h1>Ticket wallet</h1>
      <p class="muted">Tickets of ${user.firstName} ${user.lastName} (${user.email}). Show the QR code at the door, or add a ticket to your phone’s wallet.${apple?.demo ? ' In demo mode the passes are signed by a demo authority that phones do not accept.' : ''}</p>
      <p><a class="inline-link" href="${ACCOUNT_PATH}">My account</a>: orders, payment plans and settings.</p>
      <div class="form-row">
        <form method="post" action="/signout/"><button class="button button--secondary" type="submit">Sign out</button></form>
        <form method="post" action="${SIGN_OUT_EVERYWHERE_PATH}"><button class="button button--secondary" type="submit">Sign out everywhere</button></form>
      </div>
      ${list.length === 0
        ? html`<p>You have no tickets yet. <a class="inline-link" href="/all-events/">Find an event</a></p>`
        : html`<ul class="wallet" role="list">${list.map(
            (t) => html`<li class="panel wallet-ticket" data-code="${t.code}">
              <div class="wallet-ticket__qr">${new Html(qrSvg(t.code, `QR code of ticket ${t.code}`))}</div>
              <div class="wallet-ticket__info">
                <h2 class="wallet-ticket__event">${t.eventTitle}</h2>
                <dl class="wallet-ticket__facts">
                  <dt>Date</dt><dd>${formatNiceDate(t.startsAt)}</dd>
                  <dt>Venue</dt><dd>${t.venue}</dd>
                  <dt>Ticket</dt><dd>${t.ticketName}</dd>
                  <dt>Seat</dt><dd>${t.seat ?? 'General admission'}</dd>
                  <dt>Holder</dt><dd>${t.holderName}</dd>
                  <dt>Code</dt><dd class="wallet-ticket__code">${t.code}</dd>
                  ${t.saleReference ? html`<dt>Order</dt><dd>${t.saleReference}</dd>` : ''}
                </dl>
                ${apple || googleLinks.has(t.code)
                  ? html`<div class="wallet-ticket__passes">
                  ${apple ? html`<a class="button button--secondary" href="${applePassPath(t.code)}" download>Add to Apple Wallet<span class="visually-hidden">: ticket ${t.code}</span></a>` : ''}
                  ${googleLinks.has(t.code) ? html`<a class="button button--secondary" href="${googleLinks.get(t.code)}">Save to Google Wallet<span class="visually-hidden">: ticket ${t.code}</span></a>` : ''}
                </div>`
                  : ''}
              </div>
            </li>`,
          )}</ul>`}`,
    );
  });
}
