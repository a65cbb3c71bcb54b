/**
 * The sign-in page (/signin/): a one-time code sent to the buyer's e-mail address proves who they
 * are, with the checkout login step's own functions, limits and words. The code is sent to any
 * address, so the page never tells whether an address has an account; once the code is proved,
 * an address with an account is signed in, and one without is asked for a full name and gets an
 * account, as the checkout's "sign in or registration" does. In demo mode the page also lists the
 * demo accounts, each signed in with one click and no proof.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import { calls, codeDigits, formId, WALLET_PATH } from '../../../contract/index.ts';
import { ACCOUNT_MESSAGES } from '../../../contract/messages/account.ts';
import { saveGuestToSale, signInOnPage, VERIFY_FIRST_MESSAGE, type SignedIn } from '../../domain/account.ts';
import { Refusal } from '../../domain/refusal.ts';
import { LOCKED_CODE_MESSAGE, WRONG_CODE_MESSAGE } from '../../domain/oneTimeCode.ts';
import { findUser, listUsers } from '../../domain/users.ts';
import type { AppDeps } from '../../http/deps.ts';
import { sendCodeFrom } from '../../http/signInCode.ts';
import { REFUSAL_STATUS, refusalStatus } from '../../http/refusals.ts';
import { saleIdOf, setSaleCookie, signIn, userIdOf } from '../../http/session.ts';
import { html, type Html } from '../../views/html.ts';
import { sitePage } from '../../http/sitePage.ts';
import { t } from '../../../i18n/runtime.ts';
import { inActiveLanguage } from '../../../i18n/catalogues.ts';

export const SIGN_IN_PATH = '/signin/';
export const SIGN_IN_CODE_PATH = '/signin/code/';
export const SIGN_IN_NAME_PATH = '/signin/name/';
/** The checkout login step's words for what the code is for (read in the request's language). */
export const codeLead = () => t('login.lead');
export const chooseDemoAccountMessage = () => t('page.signIn.chooseDemoAccount');
export const noDemoAccountMessage = () => t('page.signIn.noDemoAccount');

/**
 * Where to go once signed in: a path on this site only. Anything else (another site, `//host`,
 * `/\host`, which browsers read as another site, or control characters) goes to the wallet.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 512) return WALLET_PATH;
  if (!next.startsWith('/') || next.startsWith('//') || /[\\\s\p{Cc}]/u.test(next)) return WALLET_PATH;
  return next;
}

/** The page's `next`, made safe; null when none was given (a demo account's button then goes to the basket, as it always has). */
function nextOf(source: unknown): string | null {
  const next = (source as { next?: unknown } | null | undefined)?.next;
  return next === undefined || next === '' ? null : safeNext(next);
}

/** A refused form in the login step's words: the full name's when only the name is wrong, else the address's. */
function refusalMessage(error: { issues: { path: PropertyKey[] }[] }): string {
  return error.issues.every((issue) => issue.path[0] === 'fullname')
    ? ACCOUNT_MESSAGES.fullName
    : ACCOUNT_MESSAGES.invalidEmail;
}

const demoForm = z.object({ user_id: formId });

type Step =
  | { kind: 'email'; email?: string }
  | { kind: 'code'; email: string; resent?: boolean }
  | { kind: 'name'; email: string };

export function registerSignIn(app: FastifyInstance, deps: AppDeps): void {
  const pageFor = sitePage(deps);
  const { db, config, clock, mailer } = deps;
  // A share link's reward, for an express purchase whose buyer proves their address at last.
  const rewards = { mailer, brandName: config.brandName, publicUrl: config.publicUrl };

  async function show(
    request: FastifyRequest,
    reply: FastifyReply,
    step: Step,
    next: string | null,
    error: string | null = null,
    status = 200,
  ) {
    const current = await findUser(db, userIdOf(request));
    const notice = error ? html`<p class="notice error" role="alert">${inActiveLanguage(error)}</p>` : '';
    const nextField = next === null ? '' : html`<input type="hidden" name="next" value="${next}">`;
    let form: Html;
    if (step.kind === 'email') {
      form = html`<form method="post" action="${SIGN_IN_PATH}" class="panel">
        <p>${codeLead()}</p>${notice}
        <label class="field">${t('login.email')} <input class="input" type="email" name="email" value="${step.email ?? ''}" required autocomplete="email" inputmode="email"></label>
        ${nextField}
        <p><button class="button" type="submit">${t('page.signIn.sendCode')}</button></p>
      </form>`;
    } else if (step.kind === 'code') {
      form = html`<div class="panel">
        <p class="notice ok" role="status">${t(step.resent ? 'page.signIn.resentTo' : 'page.signIn.codeSentTo', { email: step.email })}</p>${notice}
        <form method="post" action="${SIGN_IN_CODE_PATH}">
          <input type="hidden" name="email" value="${step.email}">${nextField}
          <label class="field">${t('login.code')} <span class="muted">${t('login.codeHint')}</span>
          <input class="input" type="text" name="code" required inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7"></label>
          <p><button class="button" type="submit">${t('login.verify')}</button></p>
        </form>
        <form method="post" action="${SIGN_IN_PATH}" class="form-row">
          <input type="hidden" name="email" value="${step.email}"><input type="hidden" name="resend" value="1">${nextField}
          <button class="button button--secondary" type="submit">${t('login.resend')}</button>
          <a class="inline-link" href="${next === null ? SIGN_IN_PATH : `${SIGN_IN_PATH}?next=${encodeURIComponent(next)}`}">${t('login.changeEmail')}</a>
        </form>
      </div>`;
    } else {
      form = html`<form method="post" action="${SIGN_IN_NAME_PATH}" class="panel">
        <p>${t('page.signIn.welcome', { email: step.email })}</p>${notice}
        <input type="hidden" name="email" value="${step.email}">${nextField}
        <label class="field">${t('login.fullName')} <input class="input" type="text" name="fullname" required autocomplete="name"></label>
        <p><button class="button" type="submit">${t('page.signIn.continue')}</button></p>
      </form>`;
    }
    let demo: Html | string = '';
    if (config.demo) {
      const users = await listUsers(db);
      demo = html`<h2>${t('page.signIn.demoAccounts')}</h2>
      <p>${t('page.signIn.demoLead')}</p>
      <form method="post" action="${SIGN_IN_PATH}" class="panel">${nextField}<ul class="account-list" role="list">${users.map(
        (
          u,
        ) => html`<li><button class="button button--secondary" type="submit" name="user_id" value="${u.id}">${t('page.signIn.continueAs', { name: `${u.firstName} ${u.lastName}` })}</button>
        <span class="muted">${u.email}${u.subscribed ? t('page.signIn.subscribed') : ''}${u.isDarkMode ? t('page.signIn.darkMode') : ''}</span></li>`,
      )}</ul></form>`;
    }
    reply.header('cache-control', 'no-store');
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(
        await pageFor(
          request,
          t('site.signIn'),
          html`<h1>${t('site.signIn')}</h1>
          ${current ? html`<p class="notice ok">${t('page.signIn.signedInAs', { name: `${current.firstName} ${current.lastName}`, email: current.email })}</p><form method="post" action="/signout/"><button class="button button--secondary" type="submit">${t('page.signOut.button')}</button></form>` : ''}
          ${form}${demo}
          <p><a class="inline-link" href="/checkout/">${t('page.signIn.backToBasket')}</a></p>`,
        ),
      );
  }

  /** A refusal from the domain, shown on the page it came from, in its own words and status. */
  function refusal(err: unknown): { message: string; status: number } | null {
    if (!(err instanceof Refusal)) return null;
    // A locked code is answered here as too many sends are, since only a new code helps.
    return {
      message: err.message,
      status: err.message === LOCKED_CODE_MESSAGE ? REFUSAL_STATUS['too-many-requests'] : refusalStatus(err),
    };
  }

  app.get(SIGN_IN_PATH, async (request, reply) => show(request, reply, { kind: 'email' }, nextOf(request.query)));

  app.post(SIGN_IN_PATH, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const next = nextOf(body);
    // One click on a demo account: demo mode only. Elsewhere a user_id proves nothing and is ignored.
    if (config.demo && body.user_id !== undefined && body.email === undefined) {
      const parsed = demoForm.safeParse(body);
      if (!parsed.success) return show(request, reply, { kind: 'email' }, next, chooseDemoAccountMessage(), 400);
      const user = await findUser(db, parsed.data.user_id);
      if (!user) return show(request, reply, { kind: 'email' }, next, noDemoAccountMessage(), 400);
      await signIn(request, reply, user.id);
      return reply.redirect(next ?? '/checkout/', 303);
    }
    const parsed = calls.sendOneTimeCode.request.safeParse({ email: body.email });
    if (!parsed.success) {
      return show(
        request,
        reply,
        { kind: 'email', email: typeof body.email === 'string' ? body.email : '' },
        next,
        refusalMessage(parsed.error),
        400,
      );
    }
    const { email } = parsed.data;
    try {
      await sendCodeFrom(deps, request, email);
    } catch (err) {
      const refused = refusal(err);
      if (!refused) throw err;
      return show(
        request,
        reply,
        body.resend === undefined ? { kind: 'email', email } : { kind: 'code', email },
        next,
        refused.message,
        refused.status,
      );
    }
    return show(request, reply, { kind: 'code', email, resent: body.resend !== undefined }, next);
  });

  app.post(SIGN_IN_CODE_PATH, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const next = nextOf(body);
    const address = calls.sendOneTimeCode.request.safeParse({ email: body.email });
    if (!address.success) return show(request, reply, { kind: 'email' }, next, refusalMessage(address.error), 400);
    const { email } = address.data;
    const typed = calls.checkOneTimeCode.request.safeParse({
      email,
      code: typeof body.code === 'string' ? codeDigits(body.code) : '',
    });
    if (!typed.success || typeof body.code !== 'string' || body.code.replace(/\s/g, '').length !== 6) {
      return show(request, reply, { kind: 'code', email }, next, WRONG_CODE_MESSAGE, 400);
    }
    let signedIn: SignedIn;
    try {
      const saleId = (await request.visitorSale())?.id ?? null;
      signedIn = await signInOnPage(db, {
        saleId,
        email,
        code: typed.data.code,
        now: clock(),
        secret: config.sessionSecret,
        rewards,
      });
    } catch (err) {
      const refused = refusal(err);
      if (!refused) throw err;
      return show(request, reply, { kind: 'code', email }, next, refused.message, refused.status);
    }
    if (!signedIn.user) {
      if (signedIn.saleId) setSaleCookie(request, reply, signedIn.saleId);
      return show(request, reply, { kind: 'name', email }, next);
    }
    await signIn(request, reply, signedIn.user.id);
    if (signedIn.saleId) setSaleCookie(request, reply, signedIn.saleId);
    return reply.redirect(next ?? WALLET_PATH, 303);
  });

  app.post(SIGN_IN_NAME_PATH, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const next = nextOf(body);
    const parsed = calls.saveGuestToSale.request.safeParse({ email: body.email, fullname: body.fullname });
    if (!parsed.success) {
      const email = calls.sendOneTimeCode.request.safeParse({ email: body.email });
      const step: Step = email.success ? { kind: 'name', email: email.data.email } : { kind: 'email' };
      return show(request, reply, step, next, refusalMessage(parsed.error), 400);
    }
    const saleId = saleIdOf(request);
    if (!saleId)
      return show(request, reply, { kind: 'email', email: parsed.data.email }, next, VERIFY_FIRST_MESSAGE, 403);
    try {
      const user = await saveGuestToSale(db, {
        saleId,
        email: parsed.data.email,
        fullname: parsed.data.fullname,
        now: clock(),
        rewards,
      });
      await signIn(request, reply, user.id);
    } catch (err) {
      const refused = refusal(err);
      if (!refused) throw err;
      return show(request, reply, { kind: 'email', email: parsed.data.email }, next, refused.message, refused.status);
    }
    return reply.redirect(next ?? WALLET_PATH, 303);
  });
}
