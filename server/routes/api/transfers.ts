/**
 * set_transfers, and the recipient's acceptance link (GET shows what was sent, POST accepts it):
 * thin mappings onto the transfers domain. A browser gets pages and, on accepting, its wallet; any
 * other client gets the contract's JSON.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCEPT_TRANSFER_PATH, WALLET_PATH } from '../../../contract/index.ts';
import { Refusal } from '../../domain/refusal.ts';
import {
  acceptTransfer,
  setTransfers,
  TRANSFER_REFUSALS,
  transferOffer,
  type TransferOffer,
} from '../../domain/transfers.ts';
import { html, page } from '../../views/html.ts';
import type { Handlers } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { signIn, userIdOf } from '../../http/session.ts';

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !accept.includes('application/json');
}

function offerPage(brand: string, token: string, offer: TransferOffer): string {
  const ticket = offer.tickets[0]!;
  const what = `${ticket.qty} ${ticket.ticket_name} ${ticket.qty === 1 ? 'ticket' : 'tickets'} for ${ticket.event_name}`;
  return page(
    brand,
    'Tickets for you',
    offer.accepted
      ? html`<h1>These tickets are yours</h1>
          <p>You accepted ${what} from ${offer.from}.</p>
          <p><a class="button" href="${WALLET_PATH}">Go to ticket wallet</a></p>`
      : html`<h1>${offer.from} sent you tickets</h1>
          <p>${what}.</p>
          ${offer.message ? html`<blockquote class="panel transfer-message">${offer.message}</blockquote>` : ''}
          <p class="muted">Accept them and they move to your ticket wallet. Until you do, they stay with ${offer.from}.</p>
          <form method="post" action="${ACCEPT_TRANSFER_PATH.replace('{token}', token)}">
            <button class="button" type="submit">Accept tickets</button>
          </form>`,
  );
}

type LinkEnd = 'unknown' | 'expired' | 'used';

/**
 * An unknown link answers 404; one past its end, or already used by someone else, 410: each in
 * words, and nothing of what the link gave (no tickets, no sender).
 */
function notFound(request: FastifyRequest, reply: FastifyReply, brand: string, end: LinkEnd = 'unknown') {
  const message =
    end === 'used'
      ? TRANSFER_REFUSALS.linkUsed
      : end === 'expired'
        ? TRANSFER_REFUSALS.linkExpired
        : TRANSFER_REFUSALS.linkNotFound;
  const status = end === 'unknown' ? 404 : 410;
  if (!wantsHtml(request)) {
    reply.status(status);
    return { error: message } as never;
  }
  reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(
      end === 'used'
        ? page(brand, 'Link already used', html`<h1>This link has already been used</h1><p>${message}</p>`)
        : page(brand, 'Transfer not found', html`<h1>This link is not valid</h1><p>${message}</p>`),
    );
  return undefined;
}

/** Accepted tickets are told about only to the browser of the account that accepted them. */
const usedByAnother = (request: FastifyRequest, offer: TransferOffer) =>
  offer.accepted && offer.recipientUserId !== userIdOf(request);

export function transferHandlers(
  deps: AppDeps,
): Pick<Handlers, 'setTransfers' | 'getTransferOffer' | 'acceptTransfer'> {
  const { db, clock, config } = deps;
  const mail = { mailer: deps.mailer, brandName: config.brandName };
  return {
    setTransfers: async ({ input, request }) => {
      const saleId = (await request.visitorSale())?.id;
      if (!saleId) throw new Refusal('not-found', TRANSFER_REFUSALS.noOrder);
      await setTransfers(db, mail, {
        saleId,
        rows: input.transfers,
        // The link carries the secret that accepts the tickets: it is on the site's own address, never
        // on one the request's Host header names.
        acceptUrl: (token) => `${config.publicUrl}${ACCEPT_TRANSFER_PATH.replace('{token}', token)}`,
        now: clock(),
      });
      return { success: true };
    },
    getTransferOffer: async ({ input, request, reply }) => {
      reply.header('cache-control', 'no-store');
      const offer = await transferOffer(db, input.token, clock());
      if (!offer || offer === 'expired')
        return notFound(request, reply, config.brandName, offer ? 'expired' : 'unknown');
      if (usedByAnother(request, offer)) return notFound(request, reply, config.brandName, 'used');
      const { recipientUserId: _who, ...shown } = offer;
      if (!wantsHtml(request)) return shown;
      reply.type('text/html; charset=utf-8').send(offerPage(config.brandName, input.token, offer));
      return undefined;
    },
    acceptTransfer: async ({ input, request, reply }) => {
      const offer = await transferOffer(db, input.token, clock());
      if (!offer || offer === 'expired')
        return notFound(request, reply, config.brandName, offer ? 'expired' : 'unknown');
      if (usedByAnother(request, offer)) return notFound(request, reply, config.brandName, 'used');
      const { userId, alreadyAccepted } = await acceptTransfer(db, input.token, clock());
      // The link came to the recipient's inbox: accepting proves the address, as a code would, once.
      if (!alreadyAccepted) await signIn(request, reply, userId);
      if (wantsHtml(request)) {
        reply.redirect(WALLET_PATH, 303);
        return undefined;
      }
      return { accepted: true, wallet: WALLET_PATH };
    },
  };
}
