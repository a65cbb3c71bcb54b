/**
 * The site's pages: the catalogue, signing in and out, the mailing list and policies, the ticket
 * wallet, the activity terms at a sale's waiver link, the charity's Gift Aid download, and the
 * checkout app's page at every other page path.
 */
import type { FastifyPluginAsync } from 'fastify';
import { compression } from '../../plugins/compression.ts';
import { pageStyleNonces } from '../../plugins/security.ts';
import { registerAccount } from './account.ts';
import { registerPasses } from './passes.ts';
import { registerCatalogue } from './catalogue.ts';
import { registerCheckoutApp, type CheckoutAppOptions } from './checkoutApp.ts';
import { registerGiftAidDownload } from './giftAidCsv.ts';
import { registerInfoPages } from './info.ts';
import { registerLanguage } from './language.ts';
import { registerSignIn } from './signin.ts';
import { registerSignOutEverywhere } from './signOutEverywhere.ts';
import { registerSmartCheckout } from './smartCheckout.ts';
import { registerWaiverPage } from './waiver.ts';
import { registerWallet } from './wallet.ts';

export const pages: FastifyPluginAsync<CheckoutAppOptions> = async (app, options) => {
  const { deps } = options;
  // Only pages are compressed per request, and only the checkout app's page has a style nonce:
  // the API's replies pay for neither.
  await app.register(compression);
  await app.register(pageStyleNonces);
  registerCatalogue(app, deps);
  registerInfoPages(app, deps);
  registerLanguage(app, deps);
  registerSignIn(app, deps);
  registerSignOutEverywhere(app, deps);
  registerSmartCheckout(app, deps);
  registerGiftAidDownload(app, deps);
  registerWallet(app, deps);
  registerAccount(app, deps);
  registerPasses(app, deps);
  registerWaiverPage(app, deps);
  registerCheckoutApp(app, options);
};
