/**
 * My account (/account/), for the signed-in buyer, as plain server forms: orders with their
 * receipts, each payment plan with its schedule and its card (changed on its own page: the sandbox
 * processor's card form, or Stripe's when keyed), transfers and gifts not yet accepted
 * (cancellable), marketing choices, saved addresses and cards, and signing out of every other
 * device. A browser not signed in is asked to sign in and comes back to the page it asked for.
 *
 * Every change is a POST (checked for same-site origin, as every change is) that answers 303 to
 * the account with a fixed notice named in the query, or the page again with the refusal's words.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatMoney } from '../../../contract/money.ts';
import { ACCOUNT_PATH, planCardPath, WALLET_PATH } from '../../../contract/delivery.ts';
import { buildCheckout } from '../../domain/checkout.ts';
import { formatNiceDate, formatUkDate } from '../../domain/format.ts';
import { deleteSavedAddress, listSavedAddresses, makeDefaultAddress } from '../../domain/address.ts';
import { tokeniseSandboxCard } from '../../domain/instalments/sandboxCards.ts';
import { cardSavedBySetup, startAccountCardSetup } from '../../domain/instalments/cardSetup.ts';
import {
  ACCOUNT_MESSAGES,
  cancelTransfer,
  cardsOf,
  changePlanCard,
  makeDefaultCard,
  orderOf,
  ordersOf,
  pendingTransfersOf,
  plansOf,
  removeCard,
  type AccountPlan,
} from '../../domain/myAccount.ts';
import { isRefusal, Refusal } from '../../domain/refusal.ts';
import { findUser, type UserRow } from '../../domain/users.ts';
import { organiserSubscriptionsOf, saveAccountMarketing } from '../../domain/marketing.ts';
import { organiserNames as organiserNamesOf } from '../../domain/catalogue.ts';
import type { AppDeps } from '../../http/deps.ts';
import { refusalStatus } from '../../http/refusals.ts';
import { signIn, signOutEverywhere, userIdOf } from '../../http/session.ts';
import { sitePage } from '../../http/sitePage.ts';
import { html, richHtml, type Html } from '../../views/html.ts';
import { t as say, type MessageKey } from '../../../i18n/runtime.ts';
import { inActiveLanguage } from '../../../i18n/catalogues.ts';

export const SIGN_OUT_OTHERS_PATH = `${ACCOUNT_PATH}signout-others/`;
const CARD_SETUP_SCRIPT_PATH = `${ACCOUNT_PATH}card-setup.js`;

/** Mounts Stripe's Payment Element for the page's SetupIntent and confirms it on submit; its two messages are the page's, in its language (data attributes). */
const CARD_SETUP_SCRIPT = `const form = document.getElementById('card-setup');
if (form) {
  const { publicKey, clientSecret, returnUrl, notSaved, notLoaded } = form.dataset;
  const error = document.getElementById('card-setup-error');
  const button = form.querySelector('button');
  const script = document.createElement('script');
  script.src = 'https://js.stripe.com/v3/';
  script.onload = () => {
    const stripe = window.Stripe(publicKey);
    const elements = stripe.elements({ clientSecret });
    elements.create('payment').mount('#card-setup-element');
    button.disabled = false;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      button.disabled = true;
      const result = await stripe.confirmSetup({ elements, confirmParams: { return_url: returnUrl } });
      if (result.error) {
        error.textContent = result.error.message || notSaved;
        error.hidden = false;
        button.disabled = false;
      }
    });
  };
  script.onerror = () => {
    error.textContent = notLoaded;
    error.hidden = false;
  };
  document.head.append(script);
}
`;

/** The notices a change comes back with: fixed words, named in the query, never the query's own text. */
const NOTICES = {
  'card-changed': 'page.account.cardChanged',
  'plan-resumed': 'page.account.planResumed',
  'card-removed': 'page.account.cardRemoved',
  'card-default': 'page.account.cardDefault',
  'transfer-cancelled': 'page.account.transferCancelled',
  'address-removed': 'page.account.addressRemoved',
  'address-default': 'page.account.addressDefault',
  'marketing-saved': 'page.account.marketingSaved',
  'others-signed-out': 'page.account.othersSignedOut',
} as const satisfies Record<string, MessageKey>;
type NoticeKey = keyof typeof NOTICES;

const REFERENCE = /^[A-Za-z0-9-]{1,40}$/;
const ID = /^[1-9][0-9]{0,9}$/;

function idOf(raw: string | undefined): number {
  if (!raw || !ID.test(raw)) throw new Refusal('invalid-input', say('page.account.notYours'));
  return Number(raw);
}

function referenceOf(raw: string | undefined): string {
  if (!raw || !REFERENCE.test(raw)) throw new Refusal('not-found', ACCOUNT_MESSAGES.planNotFound);
  return raw;
}

const field = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

const statusWords: Record<AccountPlan['schedule'][number]['status'], MessageKey> = {
  paid: 'page.account.paymentPaid',
  scheduled: 'page.account.paymentDue',
  failed: 'page.account.paymentRefused',
};
const planWords: Record<AccountPlan['status'], MessageKey> = {
  active: 'page.account.planRunning',
  completed: 'page.account.planCompleted',
  failed: 'page.account.planFailed',
  authenticating: 'page.account.planAuthenticating',
};
const strong = (words: string) => html`<strong>${words}</strong>`;

function planSection(plan: AccountPlan, now: Date): Html {
  const refused = plan.schedule.find((s) => s.status === 'failed' || (s.status === 'scheduled' && s.attempts > 0));
  const canResume = plan.status === 'failed' && (plan.deadline === null || plan.deadline.getTime() > now.getTime());
  const canChange = plan.status === 'active' || canResume;
  const paid = plan.schedule.filter((s) => s.status === 'paid').reduce((sum, s) => sum + s.amount, 0);
  return html`<li class="panel account-plan" id="plan-${plan.reference}">
    <h3>${say('page.account.order', { reference: plan.reference })}</h3>
    <p>${richHtml('page.account.planPaidSoFar', { status: say(planWords[plan.status]), paid: formatMoney(paid, plan.currency), total: formatMoney(plan.total, plan.currency) }, { b: strong })}</p>
    ${refused?.lastError ? html`<p class="notice error">${say('page.account.paymentRefusedWhy', { n: refused.seq, reason: refused.lastError })}</p>` : ''}
    <table class="account-table">
      <caption class="visually-hidden">${say('page.account.paymentsOf', { reference: plan.reference })}</caption>
      <thead><tr><th scope="col">${say('page.account.payment')}</th><th scope="col">${say('page.account.date')}</th><th scope="col">${say('page.account.amount')}</th><th scope="col">${say('page.account.status')}</th></tr></thead>
      <tbody>${plan.schedule.map(
        (s) =>
          html`<tr><td>${s.seq}</td><td>${formatUkDate(s.dueAt)}</td><td>${formatMoney(s.amount, plan.currency)}</td><td>${say(statusWords[s.status])}</td></tr>`,
      )}</tbody>
    </table>
    <p>${say('page.account.paidWith', { brand: plan.card.brand, last4: plan.card.last4, expiry: plan.card.expiry })}</p>
    ${plan.status === 'failed' && plan.deadline ? html`<p class="muted">${say('page.account.resumeUntil', { date: formatNiceDate(plan.deadline) })}</p>` : ''}
    ${canChange ? html`<p><a class="button button--secondary" href="${planCardPath(plan.reference)}">${say(canResume ? 'page.account.resumeWithCard' : 'page.account.changeCard')}</a></p>` : ''}
  </li>`;
}

export function registerAccount(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock, config } = deps;
  const pageFor = sitePage(deps);
  const cards = () => deps.plans.cards;

  const signInPage = (request: FastifyRequest, reply: FastifyReply, next: string) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return pageFor(
      request,
      say('page.account.title'),
      html`<div class="account"><h1>${say('page.account.title')}</h1>
        <p>${say('page.account.signInLead')}</p>
        <p><a class="button" href="/signin/?next=${encodeURIComponent(next)}">${say('site.signIn')}</a></p></div>`,
    );
  };

  async function overview(
    request: FastifyRequest,
    reply: FastifyReply,
    user: UserRow,
    message: { kind: 'ok' | 'error'; text: string } | null,
    status = 200,
  ) {
    const now = clock();
    const [orders, plans, transfers, cardList, addresses, organiserConsents] = await Promise.all([
      ordersOf(db, user.id),
      plansOf(db, user.id),
      pendingTransfersOf(db, user.id),
      cardsOf(db, user.id),
      listSavedAddresses(db, user.id),
      organiserSubscriptionsOf(db, user.id),
    ]);
    reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store');
    const subscribedOrganisers = [...organiserConsents].filter(([, on]) => on).map(([id]) => id);
    return pageFor(
      request,
      say('page.account.title'),
      html`<div class="account">
      <h1>${say('page.account.title')}</h1>
      <p class="muted">${user.firstName} ${user.lastName} (${user.email})</p>
      ${message ? html`<p class="notice ${message.kind === 'ok' ? 'ok' : 'error'}" role="${message.kind === 'ok' ? 'status' : 'alert'}">${message.text}</p>` : ''}
      <nav class="account-nav" aria-label="${say('page.account.sections')}"><ul>
        <li><a class="account-nav__link" href="#orders">${say('page.account.orders')}</a></li>
        <li><a class="account-nav__link" href="#plans">${say('page.account.plans')}</a></li>
        <li><a class="account-nav__link" href="#transfers">${say('page.account.transfers')}</a></li>
        <li><a class="account-nav__link" href="#marketing">${say('page.account.marketing')}</a></li>
        <li><a class="account-nav__link" href="#saved">${say('page.account.saved')}</a></li>
        <li><a class="account-nav__link" href="#devices">${say('page.account.devices')}</a></li>
      </ul></nav>

      <section aria-labelledby="orders"><h2 id="orders">${say('page.account.orders')}</h2>
        ${
          orders.length === 0
            ? html`<p>${richHtml('page.account.noOrders', {}, { a: (words) => html`<a class="inline-link" href="/all-events/">${words}</a>` })}</p>`
            : html`<ul class="account-list-plain">${orders.map(
                (o) => html`<li class="panel account-order">
                <h3>${say('page.account.order', { reference: o.reference })}</h3>
                <p>${o.events.join(', ')}</p>
                <p class="muted">${say('page.account.orderedTickets', { count: o.tickets, date: formatNiceDate(o.paidAt) })}</p>
                <p class="account-actions"><a class="button button--secondary" href="${ACCOUNT_PATH}orders/${encodeURIComponent(o.reference)}/">${say('page.account.receiptFor', { reference: o.reference })}</a>
                <a class="button button--secondary" href="${WALLET_PATH}">${say('page.account.tickets')}</a></p>
              </li>`,
              )}</ul>`
        }
      </section>

      <section aria-labelledby="plans"><h2 id="plans">${say('page.account.plans')}</h2>
        ${plans.length === 0 ? html`<p>${say('page.account.noPlans')}</p>` : html`<ul class="account-list-plain">${plans.map((p) => planSection(p, now))}</ul>`}
      </section>

      <section aria-labelledby="transfers"><h2 id="transfers">${say('page.account.transfersHeading')}</h2>
        ${
          transfers.length === 0
            ? html`<p>${say('page.account.nothingWaiting')}</p>`
            : html`<ul class="account-list-plain">${transfers.map(
                (t) => html`<li class="panel">
                <p>${richHtml('page.account.transferTickets', { count: t.qty, ticketName: t.ticketName, event: t.eventTitle }, { b: strong })}</p>
                <p>${say('page.account.transferTo', { kind: t.isGift ? 'gift' : 'transfer', name: t.recipientName, email: t.recipientEmail, sent: t.sent ? 'yes' : 'no', date: formatNiceDate(t.sendAt) })}</p>
                <form method="post" action="${ACCOUNT_PATH}transfers/${t.id}/cancel/"><button class="button button--secondary" type="submit">${say('page.account.cancelTransfer', { kind: t.isGift ? 'gift' : 'transfer', name: t.recipientName })}</button></form>
              </li>`,
              )}</ul>`
        }
      </section>

      <section aria-labelledby="marketing"><h2 id="marketing">${say('page.account.marketing')}</h2>
        <form method="post" action="${ACCOUNT_PATH}marketing/" class="panel account-form">
          <label class="account-check"><input type="checkbox" name="ct_subscribed" value="true"${user.subscribed ? html` checked` : ''}> ${say('page.account.newsletter')}</label>
          <label class="account-check"><input type="checkbox" name="events_subscribed" value="true"${user.isEventSubscribed ? html` checked` : ''}> ${say('page.account.newEvents')}</label>
          ${
            subscribedOrganisers.length > 0
              ? html`<p class="muted">${say('page.account.organisersHeard', { count: subscribedOrganisers.length })}</p>
              ${subscribedOrganisers.map((id) => html`<label class="account-check"><input type="checkbox" name="organiser" value="${id}" checked> ${say('page.account.organiserNews', { name: organiserName(id) })}</label>`)}`
              : ''
          }
          <button class="button" type="submit">${say('page.account.saveChoices')}</button>
        </form>
      </section>

      <section aria-labelledby="saved"><h2 id="saved">${say('page.account.saved')}</h2>
        <h3>${say('page.account.addresses')}</h3>
        ${
          addresses.length === 0
            ? html`<p>${say('page.account.noAddresses')}</p>`
            : html`<ul class="account-list-plain">${addresses.map(
                (
                  a,
                ) => html`<li class="panel account-row"><span>${a.full_address}${a.is_default ? html` <strong>${say('page.account.default')}</strong>` : ''}</span>
                <span class="account-actions">
                ${a.is_default ? '' : html`<form method="post" action="${ACCOUNT_PATH}addresses/${a.id}/default/"><button class="button button--secondary" type="submit">${say('page.account.makeDefault')}<span class="visually-hidden">${say('page.account.theAddress', { address: a.full_address })}</span></button></form>`}
                <form method="post" action="${ACCOUNT_PATH}addresses/${a.id}/remove/"><button class="button button--secondary" type="submit">${say('page.account.remove')}<span class="visually-hidden">${say('page.account.theAddress', { address: a.full_address })}</span></button></form>
                </span></li>`,
              )}</ul>`
        }
        <h3>${say('page.account.cards')}</h3>
        ${
          cardList.length === 0
            ? html`<p>${say('page.account.noCards')}</p>`
            : html`<ul class="account-list-plain">${cardList.map(
                (
                  c,
                ) => html`<li class="panel account-row"><span>${say('page.account.card', { brand: c.brand, last4: c.last4, expiry: c.expiry })}${c.isDefault ? html` <strong>${say('page.account.default')}</strong>` : ''}${
                  c.plans.length > 0
                    ? html`<br><span class="muted">${say('page.account.keptWithPlan', { references: c.plans.join(', ') })}</span>`
                    : ''
                }</span>
                <span class="account-actions">
                ${c.isDefault ? '' : html`<form method="post" action="${ACCOUNT_PATH}cards/${c.id}/default/"><button class="button button--secondary" type="submit">${say('page.account.makeDefault')}<span class="visually-hidden">${say('page.account.theCard', { last4: c.last4 })}</span></button></form>`}
                ${c.plans.length > 0 ? '' : html`<form method="post" action="${ACCOUNT_PATH}cards/${c.id}/remove/"><button class="button button--secondary" type="submit">${say('page.account.remove')}<span class="visually-hidden">${say('page.account.theCard', { last4: c.last4 })}</span></button></form>`}
                </span></li>`,
              )}</ul>`
        }
      </section>

      <section aria-labelledby="devices"><h2 id="devices">${say('page.account.devices')}</h2>
        <p>${say('page.account.devicesLead')}</p>
        <div class="account-actions">
          <form method="post" action="${SIGN_OUT_OTHERS_PATH}"><button class="button button--secondary" type="submit">${say('page.account.signOutOthers')}</button></form>
          <form method="post" action="/signout/"><button class="button button--secondary" type="submit">${say('page.signOut.button')}</button></form>
        </div>
      </section>
      </div>`,
    );
  }

  // The organisers' names, for the marketing choices (read once per page).
  let organiserNames = new Map<number, string>();
  const organiserName = (id: number) => organiserNames.get(id) ?? say('page.account.organiserNumber', { id });
  async function loadOrganiserNames() {
    organiserNames = await organiserNamesOf(db);
  }

  async function signedIn(request: FastifyRequest): Promise<UserRow | null> {
    return findUser(db, userIdOf(request));
  }

  app.get<{ Querystring: { done?: string } }>(ACCOUNT_PATH, async (request, reply) => {
    const user = await signedIn(request);
    if (!user) return signInPage(request, reply, ACCOUNT_PATH);
    await loadOrganiserNames();
    const done = request.query.done;
    const notice =
      done && Object.hasOwn(NOTICES, done) ? { kind: 'ok' as const, text: say(NOTICES[done as NoticeKey]) } : null;
    return overview(request, reply, user, notice);
  });

  /** A change by the signed-in buyer: 303 back to the account with its notice, or the refusal's words. */
  function change<P>(
    path: string,
    run: (user: UserRow, params: P, request: FastifyRequest) => Promise<NoticeKey>,
    anchor = '',
  ) {
    app.post<{ Params: P }>(path, async (request, reply) => {
      const user = await signedIn(request);
      if (!user) {
        reply.status(401);
        return signInPage(request, reply, ACCOUNT_PATH);
      }
      try {
        const notice = await run(user, request.params as P, request);
        return reply.redirect(`${ACCOUNT_PATH}?done=${notice}${anchor}`, 303);
      } catch (err) {
        if (!isRefusal(err)) throw err;
        await loadOrganiserNames();
        return overview(
          request,
          reply,
          user,
          { kind: 'error', text: inActiveLanguage(err.message) },
          refusalStatus(err),
        );
      }
    });
  }

  change<{ id: string }>(`${ACCOUNT_PATH}transfers/:id/cancel/`, async (user, params) => {
    await cancelTransfer(db, user.id, idOf(params.id));
    return 'transfer-cancelled';
  });
  change<{ id: string }>(`${ACCOUNT_PATH}cards/:id/remove/`, async (user, params) => {
    await removeCard(db, user.id, idOf(params.id));
    return 'card-removed';
  });
  change<{ id: string }>(`${ACCOUNT_PATH}cards/:id/default/`, async (user, params) => {
    await makeDefaultCard(db, user.id, idOf(params.id));
    return 'card-default';
  });
  change<{ id: string }>(`${ACCOUNT_PATH}addresses/:id/remove/`, async (user, params) => {
    const id = idOf(params.id);
    const own = await listSavedAddresses(db, user.id);
    if (!own.some((a) => a.id === id)) throw new Refusal('not-found', say('page.account.addressNotYours'));
    await deleteSavedAddress(db, user.id, id);
    return 'address-removed';
  });
  change<{ id: string }>(
    `${ACCOUNT_PATH}addresses/:id/default/`,
    async (user, params) => {
      await makeDefaultAddress(db, user.id, idOf(params.id));
      return 'address-default';
    },
    '#saved',
  );
  change<Record<string, never>>(`${ACCOUNT_PATH}marketing/`, async (user, _params, request) => {
    const body = request.body as Record<string, unknown> | undefined;
    const community = field(body, 'ct_subscribed') === 'true';
    const eventNews = field(body, 'events_subscribed') === 'true';
    const raw = body?.organiser;
    const kept = new Set(
      (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
        .map(String)
        .filter((v) => ID.test(v))
        .map(Number),
    );
    // Only ever a stop from here: an organiser's news is started by buying from them.
    await saveAccountMarketing(db, user, { community, eventNews, keptOrganisers: kept }, clock());
    return 'marketing-saved';
  });
  app.post(SIGN_OUT_OTHERS_PATH, async (request, reply) => {
    const user = await signedIn(request);
    if (!user) {
      reply.status(401);
      return signInPage(request, reply, ACCOUNT_PATH);
    }
    // Every session of the buyer ends, this one too; this browser then signs in again as the same
    // buyer under a new session id, so only the other devices are signed out.
    await signOutEverywhere(request, reply);
    await signIn(request, reply, user.id);
    return reply.redirect(`${ACCOUNT_PATH}?done=others-signed-out#devices`, 303);
  });

  /* ---------- a receipt ---------- */

  app.get<{ Params: { reference: string } }>(`${ACCOUNT_PATH}orders/:reference/`, async (request, reply) => {
    const user = await signedIn(request);
    const path = `${ACCOUNT_PATH}orders/${encodeURIComponent(request.params.reference)}/`;
    if (!user) return signInPage(request, reply, path);
    const order = REFERENCE.test(request.params.reference)
      ? await orderOf(db, user.id, request.params.reference)
      : null;
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!order) {
      return reply
        .status(404)
        .send(
          await pageFor(
            request,
            say('page.account.orderNotFound'),
            html`<div class="account"><h1>${say('page.account.orderNotFound')}</h1><p>${say('page.account.noSuchOrder')}</p><p><a class="inline-link" href="${ACCOUNT_PATH}">${say('page.account.back')}</a></p></div>`,
          ),
        );
    }
    const c = await buildCheckout(db, order.saleId, clock(), { captchaSitekey: null, userId: user.id });
    const money = (minor: number) => formatMoney(minor, c.currency.code);
    const rows: Html[] = [
      ...c.tickets.map(
        (t) =>
          html`<tr><th scope="row">${t.qty} × ${t.ticket_name}<br><span class="muted">${t.event_name}, ${t.nice_date}</span></th><td>${money(t.qty * t.price)}</td></tr>`,
      ),
      ...c.gift_vouchers.map(
        (v) => html`<tr><th scope="row">${v.qty} × ${v.name}</th><td>${money(v.qty * v.value)}</td></tr>`,
      ),
    ];
    const extras: [MessageKey, number][] = [
      ['page.account.bookingFees', c.tickets.reduce((s, t) => s + t.qty * t.booking_fee, 0)],
      ['page.account.refundProtection', c.refund_protection ? c.refund_protection_cost : 0],
      ['page.account.donation', c.donation_amount],
      ['page.account.delivery', c.delivery_cost],
      ['page.account.vouchersApplied', -c.gift_vouchers_applied_total],
      ['page.account.offersApplied', -c.offers_applied_total],
    ];
    return pageFor(
      request,
      say('page.account.receiptFor', { reference: order.reference }),
      html`<div class="account"><h1>${say('page.account.receiptForOrder', { reference: order.reference })}</h1>
      <p class="muted">${say('page.account.orderedBy', { date: formatNiceDate(order.paidAt), name: `${user.firstName} ${user.lastName}`, email: user.email, brand: config.brandName })}</p>
      <table class="account-table receipt">
        <caption class="visually-hidden">${say('page.account.paidFor', { reference: order.reference })}</caption>
        <thead><tr><th scope="col">${say('page.account.item')}</th><th scope="col">${say('page.account.price')}</th></tr></thead>
        <tbody>${rows}${extras.filter(([, v]) => v !== 0).map(([label, v]) => html`<tr><th scope="row">${say(label)}</th><td>${money(v)}</td></tr>`)}</tbody>
        <tfoot><tr><th scope="row">${say('page.account.total')}</th><td><strong>${money(c.basket_total)}</strong></td></tr></tfoot>
      </table>
      <p class="account-actions"><a class="button button--secondary" href="${WALLET_PATH}">${say('page.account.tickets')}</a> <a class="button button--secondary" href="${ACCOUNT_PATH}">${say('page.account.back')}</a></p></div>`,
    );
  });

  /* ---------- a plan's card ---------- */

  app.get<{ Params: { reference: string } }>(`${ACCOUNT_PATH}plans/:reference/card/`, async (request, reply) => {
    const user = await signedIn(request);
    const reference = request.params.reference;
    if (!user) return signInPage(request, reply, planCardPath(reference));
    return cardPage(request, reply, user, reference, null);
  });

  /**
   * Keyed: Stripe's Payment Element, for a SetupIntent of the buyer's own customer; Stripe.js
   * confirms it and sends the browser back to the return path, where the server reads the
   * SetupIntent from Stripe before the plan trusts the card.
   */
  async function stripeCardForm(user: UserRow, plan: AccountPlan, problem: string | null): Promise<Html> {
    const setup = deps.plans.setup;
    if (!setup) return html`<p class="notice error" role="alert">${say('page.account.cardsNotHere')}</p>`;
    const started = await startAccountCardSetup(db, setup, { userId: user.id, saleId: plan.saleId, now: clock() });
    return html`<form class="panel sandbox-card" id="card-setup" data-public-key="${started.publicKey}" data-client-secret="${started.clientSecret}" data-return-url="${config.publicUrl}${planCardPath(plan.reference)}stripe/" data-not-saved="${say('page.account.cardNotSaved')}" data-not-loaded="${say('page.account.cardFormFailed')}">
        <div id="card-setup-element"></div>
        ${problem ? html`<p class="notice error" role="alert">${problem}</p>` : ''}
        <p class="notice error" id="card-setup-error" role="alert" hidden></p>
        <button class="button button--large" type="submit" disabled>${say('page.account.saveCard')}</button>
      </form>
      <script type="module" src="${CARD_SETUP_SCRIPT_PATH}"></script>`;
  }

  // The page's one script: Stripe.js takes the card and confirms the SetupIntent (keyed only).
  app.get(CARD_SETUP_SCRIPT_PATH, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(CARD_SETUP_SCRIPT),
  );

  app.get<{ Params: { reference: string }; Querystring: { setup_intent?: string } }>(
    `${ACCOUNT_PATH}plans/:reference/card/stripe/`,
    async (request, reply) => {
      const user = await signedIn(request);
      const reference = request.params.reference;
      if (!user) return signInPage(request, reply, planCardPath(reference));
      try {
        const ref = referenceOf(reference);
        const setup = deps.plans.setup;
        if (!setup) throw new Refusal('not-found', say('page.account.noStripe'));
        const paymentMethod = await cardSavedBySetup(db, setup, {
          userId: user.id,
          setupIntentId: String(request.query.setup_intent ?? ''),
        });
        const { resumed } = await changePlanCard(db, cards(), {
          userId: user.id,
          reference: ref,
          providerMethodId: paymentMethod,
          makeDefault: true,
          now: clock(),
        });
        return reply.redirect(`${ACCOUNT_PATH}?done=${resumed ? 'plan-resumed' : 'card-changed'}#plan-${ref}`, 303);
      } catch (err) {
        if (!isRefusal(err)) throw err;
        return cardPage(request, reply, user, reference, inActiveLanguage(err.message), refusalStatus(err));
      }
    },
  );

  async function cardPage(
    request: FastifyRequest,
    reply: FastifyReply,
    user: UserRow,
    reference: string,
    problem: string | null,
    status = 200,
  ) {
    const [plan] = REFERENCE.test(reference) ? await plansOf(db, user.id, reference) : [];
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!plan) {
      return reply
        .status(404)
        .send(
          await pageFor(
            request,
            say('page.account.planNotFoundTitle'),
            html`<div class="account"><h1>${say('page.account.planNotFoundTitle')}</h1><p>${ACCOUNT_MESSAGES.planNotFound}</p><p><a class="inline-link" href="${ACCOUNT_PATH}">${say('page.account.back')}</a></p></div>`,
          ),
        );
    }
    const due = plan.schedule.find((s) => s.status !== 'paid');
    const now = clock();
    const closed =
      plan.status === 'completed'
        ? ACCOUNT_MESSAGES.planPaid
        : plan.status === 'authenticating'
          ? ACCOUNT_MESSAGES.planNotStarted
          : plan.status === 'failed' && plan.deadline && plan.deadline.getTime() <= now.getTime()
            ? ACCOUNT_MESSAGES.planPastDeadline
            : null;
    reply.status(status);
    return pageFor(
      request,
      say('page.account.changeCard'),
      html`<div class="account"><h1>${say('page.account.changeCardFor', { reference: plan.reference })}</h1>
      <p>${say('page.account.nowPaidWith', { brand: plan.card.brand, last4: plan.card.last4 })}${
        due
          ? due.attempts > 0 || due.status === 'failed'
            ? say('page.account.nextPaymentNow', { amount: formatMoney(due.amount, plan.currency) })
            : say('page.account.nextPaymentOn', {
                amount: formatMoney(due.amount, plan.currency),
                date: formatUkDate(due.dueAt),
              })
          : ''
      }</p>
      ${
        closed
          ? html`<p class="notice" role="status">${closed}</p>`
          : cards().name === 'sandbox'
            ? html`<form method="post" action="${planCardPath(plan.reference)}" class="panel sandbox-card" novalidate>
        <label class="field">${say('page.account.cardNumber')} <input class="input" name="number" inputmode="numeric" autocomplete="cc-number" required${problem ? html` aria-invalid="true" aria-describedby="card-problem"` : ''}></label>
        <div class="form-row">
          <label class="field">${say('page.account.expiry')} <input class="input" name="expiry" autocomplete="cc-exp" placeholder="${say('page.account.expiryPlaceholder')}" required></label>
          <label class="field">${say('page.account.cvc')} <input class="input" name="cvc" inputmode="numeric" autocomplete="cc-csc" required></label>
        </div>
        <label class="account-check"><input type="checkbox" name="make_default" value="true" checked> ${say('page.account.makeCardDefault')}</label>
        ${problem ? html`<p class="notice error" id="card-problem" role="alert">${problem}</p>` : ''}
        <button class="button button--large" type="submit">${say('page.account.saveCard')}</button>
      </form>
      <p class="muted">${say('page.account.sandboxNote')}</p>`
            : await stripeCardForm(user, plan, problem)
      }
      <p><a class="inline-link" href="${ACCOUNT_PATH}#plan-${plan.reference}">${say('page.account.back')}</a></p></div>`,
    );
  }

  app.post<{ Params: { reference: string } }>(`${ACCOUNT_PATH}plans/:reference/card/`, async (request, reply) => {
    const user = await signedIn(request);
    const reference = request.params.reference;
    if (!user) {
      reply.status(401);
      return signInPage(request, reply, planCardPath(reference));
    }
    try {
      const ref = referenceOf(reference);
      if (cards().name !== 'sandbox' || !config.demo) throw new Refusal('not-found', say('page.account.stripeOnly'));
      const body = request.body;
      const now = clock();
      const card = await tokeniseSandboxCard(
        db,
        { number: field(body, 'number'), expiry: field(body, 'expiry'), cvc: field(body, 'cvc') },
        'payment_method',
        now,
      );
      const { resumed } = await changePlanCard(db, cards(), {
        userId: user.id,
        reference: ref,
        providerMethodId: card.id,
        makeDefault: field(body, 'make_default') === 'true',
        now,
      });
      return reply.redirect(`${ACCOUNT_PATH}?done=${resumed ? 'plan-resumed' : 'card-changed'}#plan-${ref}`, 303);
    } catch (err) {
      if (!isRefusal(err)) throw err;
      return cardPage(request, reply, user, reference, inActiveLanguage(err.message), refusalStatus(err));
    }
  });
}
