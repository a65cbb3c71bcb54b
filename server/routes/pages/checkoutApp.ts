/**
 * The checkout app's page, at /checkout/ and at every other page path no route claims, as the spec
 * says. API paths, development paths and paths served for another method are left to the not-found
 * handler; a date without seats has no seat page.
 *
 * The page is the built index.html with the first screen drawn into it: the buyer's checkout and
 * user come with it, and at the basket the first paint is the basket itself. Its stylesheet comes
 * inside, allowed by the reply's own style nonce.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { calls, INITIAL_DATA_ID, MAX_ID } from '../../../contract/index.ts';
import { basketCount } from '../../../contract/basketRules.ts';
import { ENTRY_LOADER } from '../../../contract/entryLoader.ts';
import { hasSeatPlan } from '../../domain/seats.ts';
import { checkoutPageData } from '../../http/checkoutData.ts';
import { isDemoPath } from '../../http/demoMode.ts';
import { telemetryMeta } from '../../http/pageMeta.ts';
import type { AppDeps } from '../../http/deps.ts';
import { basketScreenHtml } from '../../views/basketScreen.tsx';
import { checkoutShell, esc, html, htmlLangDir, jsonScript, page, richHtml } from '../../views/html.ts';
import { t } from '../../../i18n/runtime.ts';
import { appCatalogue } from '../../../i18n/catalogues.ts';
import { CATALOGUE_ID } from '../../../i18n/locales.ts';
import { organiserLanguage, requestLocale } from '../../http/locale.ts';
import { organiserDefaultLanguage } from '../../domain/catalogue.ts';

export const CHECKOUT_PATH = '/checkout/';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that answers any page path: it names no path of its own for the list of methods a path is served for. */
    everyPath?: boolean;
  }
}

const EVERY_PATH = { everyPath: true };

export interface CheckoutAppOptions {
  deps: AppDeps;
  /** The built app (index.html, seats.html, assets/). */
  staticDir: string;
  /** The methods the app's other routes answer at a path: a path served for other methods is not a page. */
  allowed: (url: string) => string[];
}

export function registerCheckoutApp(app: FastifyInstance, { deps, staticDir, allowed }: CheckoutAppOptions): void {
  const { config } = deps;
  const indexFile = path.join(staticDir, 'index.html');
  const seatsFile = path.join(staticDir, 'seats.html');
  // In demo mode the page says so: `?inspect` and 'Copy for Stately' are offered then (src/inspector.ts).
  const demoMeta = config.demo ? '<meta name="demo-mode" content="on">' : '';

  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const url = request.url.split('?')[0] ?? '/';
    // An API or development path, or a path served for another method, is not a page of the app.
    if (url.startsWith('/ajax/') || url.startsWith('/do/') || isDemoPath(url) || allowed(url).length > 0)
      return reply.callNotFound();
    // A seated date's seat page is part of the app; any other date has no seat page.
    const seatDate = /^\/events\/book_seats\/([1-9]\d{0,9})\/$/.exec(url)?.[1];
    const seated =
      seatDate !== undefined && Number(seatDate) <= MAX_ID && (await hasSeatPlan(deps.db, Number(seatDate)));
    if (url.startsWith('/events/book_seats/') && !seated) {
      return reply
        .status(404)
        .type('text/html; charset=utf-8')
        .send(page(config, t('seats.selection'), html`<h1>${t('page.seats.unavailable')}</h1>`));
    }
    if (seated) {
      // The seat page is the app's own entry (seats.html): it reads its event date and plan itself.
      const seatsPage = await readFile(seatsFile, 'utf8').catch(() => null);
      if (seatsPage !== null) {
        const nonce = reply.styleNonce();
        const withStyles = await inlineStylesheets(seatsPage, staticDir, nonce);
        const document = withLanguage(withStyles)
          .replace('<head>', `<head><meta name="csp-nonce" content="${nonce}">${demoMeta}${telemetryMeta(config)}`)
          .replace('<div id="root"></div>', `<div id="root"><p class="page">${esc(t('seats.loadingPlan'))}</p></div>`);
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(document);
      }
    }
    const index = await readFile(indexFile, 'utf8').catch(() => null);
    if (index === null) {
      return reply
        .status(503)
        .type('text/html; charset=utf-8')
        .send(
          page(
            config,
            t('page.checkout.notBuiltTitle'),
            html`<h1>${t('page.checkout.notBuilt')}</h1><p>${runBuild()}</p>`,
          ),
        );
    }
    // A build from another version of the app carries another loader, which the page's policy (the
    // hash of this version's loader) would block: the page would paint and never come alive.
    if (index.includes('name="app-entry"') && !index.includes(`<script>${ENTRY_LOADER}</script>`)) {
      request.log.error(`${indexFile} was built from another version of the app: run npm run build`);
      return reply
        .status(503)
        .type('text/html; charset=utf-8')
        .send(
          page(
            config,
            t('page.checkout.outOfDateTitle'),
            html`<h1>${t('page.checkout.outOfDate')}</h1><p>${runBuild()}</p>`,
          ),
        );
    }
    const nonce = reply.styleNonce();
    // The first checkout and user come with the page, and the first screen paints before any script runs.
    // The app puts it in its cache before it has loaded the contract, so it is checked against the contract here.
    const data = await checkoutPageData(deps, request)
      .then((d) => {
        if (
          calls.getCheckout.response.safeParse(d.checkout).success &&
          calls.getUser.response.safeParse(d.user).success
        )
          return d;
        request.log.warn('the checkout page was sent without its data: it does not meet the contract');
        return null;
      })
      .catch((err: unknown) => {
        request.log.warn({ err }, 'the checkout page was sent without its data');
        return null;
      });
    // At the basket the first paint is the basket itself, drawn by the app's own screen; elsewhere the
    // app first determines the step.
    // A buyer who has not asked for a language we have gets the basket's organiser's.
    const organiserId = data?.checkout.organisers[0]?.id;
    if (organiserId !== undefined) {
      organiserLanguage(await organiserDefaultLanguage(deps.db, organiserId));
    }
    const screen = data?.checkout.state === 'basket' ? basketScreenHtml(data.checkout, data.user.user) : undefined;
    const body = `${checkoutShell(config, screen, basketCount(data?.checkout))}${data ? jsonScript(INITIAL_DATA_ID, data) : ''}`;
    // The entry stylesheet comes inside the page, so the first paint waits for no other request.
    const withStyles = await inlineStylesheets(index, staticDir, nonce);
    const document = withLanguage(withStyles)
      .replace('<head>', `<head><meta name="csp-nonce" content="${nonce}">${demoMeta}${telemetryMeta(config)}`)
      .replace('<div id="root"></div>', body);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('vary', 'accept-encoding')
      .compress(document);
  }

  // HEAD is not answered with the page, as no page path is served for HEAD.
  app.get(CHECKOUT_PATH, { exposeHeadRoute: false, config: EVERY_PATH }, serve);
  app.get('/*', { exposeHeadRoute: false, config: EVERY_PATH }, serve);
}

/**
 * The page in the request's language: its html element's `lang` and `dir`, and the active
 * locale's messages for the app (only those: the app downloads no other language).
 */
/** 'Run npm run build, then reload this page.', the command in a code element. */
const runBuild = () => richHtml('page.checkout.run', {}, { code: (command) => html`<code>${command}</code>` });

function withLanguage(index: string): string {
  return index
    .replace(/<html lang="[^"]*">/, `<html ${htmlLangDir()}>`)
    .replace('</head>', `${jsonScript(CATALOGUE_ID, appCatalogue(requestLocale()))}</head>`);
}

const stylesheets = new Map<string, string>();

/** Puts each built stylesheet the page links into the page itself (read once per file, as built files never change), its link left disabled. */
async function inlineStylesheets(index: string, staticDir: string, nonce: string): Promise<string> {
  let out = index;
  for (const match of index.matchAll(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g)) {
    const file = path.join(staticDir, match[1]!);
    let css = stylesheets.get(file);
    if (css === undefined) {
      css = (await readFile(file, 'utf8').catch(() => null)) ?? '';
      if (!css) continue;
      stylesheets.set(file, css);
    }
    // The disabled link is neither fetched nor applied: it tells the app's chunk loader, which looks
    // for a stylesheet by its link before adding one, that this one is already on the page (added
    // again after the page's own stylesheets, it would override them).
    out = out.replace(
      match[0],
      `<style nonce="${nonce}">${css.replace(/<\/style/gi, '<\\/style')}</style><link rel="stylesheet" href="/${match[1]}" disabled>`,
    );
  }
  return out;
}
