/**
 * A waiting list offer's link (`/waiting-list/offer/<token>/`): the tickets it holds go only to a
 * browser that proves the listed address with the one-time code e-mailed to it, never to whoever
 * opens the link. Opening it shows what is held and until when, and offers to e-mail the code; the
 * code then claims the offer for this browser, signed in as the address's account if it has one
 * (the sale then follows the account, as any sale does), or else carrying the proved address on the
 * sale, as the checkout's login step does. Without an account an offer is claimed once: a second
 * browser is refused it, even with a right code. The offer never replaces a basket with tickets in
 * it without the buyer saying so, and every step checks that it has not ended.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { codeDigits } from '../../../contract/index.ts';
import { basketItemCount } from '../../domain/basketCount.ts';
import { checkCode, CODE_CHECK_MESSAGES, LOCKED_CODE_MESSAGE } from '../../domain/oneTimeCode.ts';
import { Refusal } from '../../domain/refusal.ts';
import { holdIsLive } from '../../domain/sales.ts';
import { findUserByEmail } from '../../domain/users.ts';
import {
  claimOffer,
  findOffer,
  markOfferOpened,
  OFFER_BOUGHT_MESSAGE,
  OFFER_ENDED_MESSAGE,
  OFFER_TAKEN_MESSAGE,
  OFFER_UNKNOWN_MESSAGE,
  type OfferLookup,
} from '../../domain/waitingRoom/waitingList.ts';
import type { AppDeps } from '../../http/deps.ts';
import { sendCodeFrom } from '../../http/signInCode.ts';
import { formatDeadline } from '../../domain/format.ts';
import { REFUSAL_STATUS, refusalStatus } from '../../http/refusals.ts';
import { setSaleCookie, signIn, userIdOf } from '../../http/session.ts';
import { html, page, type Html } from '../../views/html.ts';
import { inActiveLanguage, sourceText } from '../../../i18n/catalogues.ts';
import { t } from '../../../i18n/runtime.ts';

export const offerPath = (token: string) => `/waiting-list/offer/${token}/`;
/** The page's words in the source's English, as the tests read them; the page writes them in its language. */
export const OFFER_SEND_CODE_LABEL = sourceText('page.offer.sendCode');
export const OFFER_REPLACE_LABEL = sourceText('page.offer.replaceAndSend');
export const OFFER_CLAIM_LABEL = sourceText('page.offer.claim');
export const OFFER_REPLACE_QUESTION = sourceText('page.offer.replaceQuestion');
/** Refusals in English, as the tests compare them; the page shows them in its language (`inActiveLanguage`). */
export const OFFER_OTHER_ACCOUNT_MESSAGE =
  'This offer was made to another e-mail address than the account you are signed in with. Sign out, then open the link again and claim it with the code sent to the listed address.';
export const OFFER_CODE_SHAPE_MESSAGE = 'Type the 6 digits of the code we e-mailed to the listed address.';

/** The listed address as the link shows it: enough for its owner to know it, not to give it away. */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  return `${local.slice(0, 1)}${'•'.repeat(Math.max(3, Math.min(local.length - 1, 8)))}${email.slice(at)}`;
}

const time = (d: Date) => formatDeadline(d);

type Live = Extract<OfferLookup, { kind: 'live' }>;

export function registerOffers(app: FastifyInstance, deps: AppDeps): void {
  const { db, config, clock } = deps;

  function show(reply: FastifyReply, body: Html, status = 200) {
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page(config, t('page.queue.waitingList'), html`<h1>${t('page.queue.waitingList')}</h1>${body}`));
  }
  const refused = (reply: FastifyReply, message: string, status: number) =>
    show(reply, html`<p class="notice error" role="alert">${inActiveLanguage(message)}</p>`, status);

  /** The offer a link names, live; otherwise the page saying why not (and null). */
  async function liveOffer(
    request: FastifyRequest<{ Params: { token: string } }>,
    reply: FastifyReply,
  ): Promise<Live | null> {
    const offer = await findOffer(db, request.params.token, clock());
    if (offer.kind === 'live') return offer;
    if (offer.kind === 'unknown') await refused(reply, OFFER_UNKNOWN_MESSAGE, 404);
    else await refused(reply, offer.kind === 'bought' ? OFFER_BOUGHT_MESSAGE : OFFER_ENDED_MESSAGE, 410);
    return null;
  }

  /** This browser's sale: the offer's already (then there is nothing to claim), another with tickets in it, or neither. */
  async function visitorsBasket(request: FastifyRequest, offer: Live): Promise<'this-offer' | 'other-basket' | null> {
    const sale = await request.visitorSale();
    if (!sale) return null;
    if (sale.id === offer.saleId) return 'this-offer';
    const live = sale.paidAt === null && (sale.state === 'basket' || holdIsLive(sale, clock()));
    return live && (await basketItemCount(db, sale.id)) > 0 ? 'other-basket' : null;
  }

  /** Signed in as an account that is not the listed address's: this browser may not claim the offer. */
  async function otherAccount(request: FastifyRequest, offer: Live): Promise<boolean> {
    const signedIn = userIdOf(request);
    if (signedIn === null) return false;
    return (await findUserByEmail(db, offer.email))?.id !== signedIn;
  }

  const held = (offer: Live) =>
    html`<p>${t('page.offer.held', { qty: offer.qty, typeName: offer.typeName, title: offer.title, until: time(offer.until), address: maskedAddress(offer.email) })}</p>`;
  const replaceField = (replace: boolean) => (replace ? html`<input type="hidden" name="replace" value="1">` : '');

  function codeForm(offer: Live, token: string, replace: boolean, notice: Html | string = '') {
    return html`${held(offer)}<p class="notice ok" role="status">${t('page.offer.codeSent', { address: maskedAddress(offer.email) })}</p>${notice}
      <form method="post" action="${offerPath(token)}claim/" class="panel">${replaceField(replace)}
        <label class="field">${t('page.offer.code')} <span class="muted">${t('page.offer.codeHint')}</span>
        <input class="input" type="text" name="code" required inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7"></label>
        <p><button class="button" type="submit">${t('page.offer.claim')}</button></p>
      </form>
      <form method="post" action="${offerPath(token)}code/">${replaceField(replace)}<button class="button button--secondary" type="submit">${t('page.offer.newCode')}</button></form>`;
  }

  app.get<{ Params: { token: string } }>('/waiting-list/offer/:token/', async (request, reply) => {
    const offer = await liveOffer(request, reply);
    if (!offer) return reply;
    await markOfferOpened(db, offer.entryId, clock());
    const basket = await visitorsBasket(request, offer);
    if (basket === 'this-offer') return reply.redirect('/checkout/', 303);
    if (await otherAccount(request, offer)) return refused(reply, OFFER_OTHER_ACCOUNT_MESSAGE, 403);
    const token = request.params.token;
    const replace = basket === 'other-basket';
    return show(
      reply,
      html`${held(offer)}<p>${t('page.offer.prove')}</p>
      ${replace ? html`<p class="notice" role="alert">${t('page.offer.replaceQuestion')}</p>` : ''}
      <form method="post" action="${offerPath(token)}code/">${replaceField(replace)}
        <button class="button" type="submit">${replace ? t('page.offer.replaceAndSend') : t('page.offer.sendCode')}</button></form>
      ${replace ? html`<p><a class="inline-link" href="/checkout/">${t('page.offer.keepBasket')}</a></p>` : ''}`,
    );
  });

  app.post<{ Params: { token: string } }>('/waiting-list/offer/:token/code/', async (request, reply) => {
    const offer = await liveOffer(request, reply);
    if (!offer) return reply;
    if (await otherAccount(request, offer)) return refused(reply, OFFER_OTHER_ACCOUNT_MESSAGE, 403);
    const replace = (request.body as { replace?: unknown } | undefined)?.replace === '1';
    try {
      await sendCodeFrom(deps, request, offer.email);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      return refused(reply, err.message, refusalStatus(err));
    }
    return show(reply, codeForm(offer, request.params.token, replace));
  });

  app.post<{ Params: { token: string } }>('/waiting-list/offer/:token/claim/', async (request, reply) => {
    const body = (request.body ?? {}) as { code?: unknown; replace?: unknown };
    const token = request.params.token;
    const offer = await liveOffer(request, reply);
    if (!offer) return reply;
    const replace = body.replace === '1';
    const typed = typeof body.code === 'string' && body.code.length <= 20 ? codeDigits(body.code) : '';
    const notice = (message: string) => html`<p class="notice error" role="alert">${inActiveLanguage(message)}</p>`;
    if (typed.length !== 6) return show(reply, codeForm(offer, token, replace, notice(OFFER_CODE_SHAPE_MESSAGE)), 400);

    const basket = await visitorsBasket(request, offer);
    if (basket === 'this-offer') return reply.redirect('/checkout/', 303);
    if (await otherAccount(request, offer)) return refused(reply, OFFER_OTHER_ACCOUNT_MESSAGE, 403);
    // A basket with tickets is replaced only once the buyer says so; the code is checked after.
    if (basket === 'other-basket' && !replace) {
      return show(
        reply,
        html`${held(offer)}<p class="notice" role="alert">${t('page.offer.replaceQuestion')}</p>
        <form method="post" action="${offerPath(token)}claim/"><input type="hidden" name="code" value="${typed}">${replaceField(true)}
          <button class="button" type="submit">${t('page.offer.replace')}</button></form>
        <p><a class="inline-link" href="/checkout/">${t('page.offer.keepBasket')}</a></p>`,
        409,
      );
    }
    const account = await findUserByEmail(db, offer.email);
    // Without an account the offer goes to one browser only: a second is told so before its code is used.
    if (!account && offer.claimed) return refused(reply, OFFER_TAKEN_MESSAGE, 409);

    const checked = await checkCode(db, {
      email: offer.email,
      code: typed,
      now: clock(),
      secret: config.sessionSecret,
    });
    if (checked !== 'accepted') {
      const message = CODE_CHECK_MESSAGES[checked];
      const status = message === LOCKED_CODE_MESSAGE ? REFUSAL_STATUS['too-many-requests'] : 400;
      return show(reply, codeForm(offer, token, replace, notice(message)), status);
    }
    if (!(await claimOffer(db, offer, account?.id ?? null, clock()))) return refused(reply, OFFER_TAKEN_MESSAGE, 409);
    if (account) await signIn(request, reply, account.id);
    setSaleCookie(request, reply, offer.saleId);
    return reply.header('cache-control', 'no-store').redirect('/checkout/', 303);
  });
}
