/**
 * Demo mode (config.demo, decided in server/config.ts): the demo accounts on the sign-in page
 * (server/routes/pages/signin.ts), the development routes (/dev/*) and the sandbox payment processors
 * with their pages and calls (/sandbox/*) are one thing, served together or not at all. The
 * sign-in page itself, by one-time code, is served in and out of demo mode.
 *
 * Out of demo mode, every demo path answers 404, whether or not a route is registered there (an
 * unknown page would otherwise be answered by the checkout app), and the calls of a payment method
 * whose processor would be a sandbox, because its keys are not set, are refused with a 409 in words.
 * The checkout carries no list of methods (the app works out what to offer from the basket), so the
 * refusal is where an unkeyed method stops.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { calls } from '../../contract/index.ts';
import { html, page } from '../views/html.ts';
import type { AppDeps } from './deps.ts';
import { inActiveLanguage } from '../../i18n/catalogues.ts';

const DEMO_PATH = /^\/(dev|sandbox)(\/|$)/;

/** Whether a path is one of demo mode's: a development route or a sandbox's. */
export function isDemoPath(path: string): boolean {
  return DEMO_PATH.test(path);
}

export const UNKEYED_MESSAGES = {
  card: 'Paying by card is not available on this site. Please choose another way to pay.',
  bank: 'Paying by instant bank transfer is not available on this site. Please choose another way to pay.',
  plan: 'Payment plans are not available on this site. Please choose another way to pay.',
} as const;

export interface UnkeyedMethod {
  /** The method as the start log names it. */
  name: string;
  /** The variables that would give it a real processor. */
  keys: string;
  /** What the buyer is told when one of its calls is refused. */
  message: string;
  /** The calls that start a payment with it. */
  paths: string[];
}

const STRIPE_KEYS = 'STRIPE_PUBLISHABLE_KEY and STRIPE_SECRET_KEY';

/** The payment methods whose processor is one of this server's sandboxes: its keys are not set. */
export function unkeyedMethods(deps: Pick<AppDeps, 'payment' | 'bank' | 'plans'>): UnkeyedMethod[] {
  const methods: UnkeyedMethod[] = [];
  if (deps.payment.processor.name === 'sandbox') {
    methods.push({
      name: 'card',
      keys: STRIPE_KEYS,
      message: UNKEYED_MESSAGES.card,
      paths: [calls.getStripeToken.path],
    });
  }
  if (deps.bank.bank.name === 'sandbox_bank') {
    methods.push({
      name: 'instant bank transfer',
      keys: 'the TRUELAYER_* keys',
      message: UNKEYED_MESSAGES.bank,
      paths: [calls.createTruelayerPayment.path, calls.payWithTruelayer.path],
    });
  }
  if (deps.plans.square.credentials.checkout_js === '') {
    methods.push({
      name: 'Square',
      keys: 'SQUARE_APPLICATION_ID, SQUARE_ACCESS_TOKEN and SQUARE_LOCATION_ID',
      message: UNKEYED_MESSAGES.card,
      paths: [calls.getSquareCredentials.path, calls.payWithSquare.path],
    });
  }
  if (deps.plans.cards.name === 'sandbox') {
    methods.push({
      name: 'payment plans',
      keys: STRIPE_KEYS,
      message: UNKEYED_MESSAGES.plan,
      paths: [calls.payWithInstalment.path, calls.createPlanSetupIntent.path],
    });
  }
  return methods;
}

const normal = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

export function notServed(request: FastifyRequest, reply: FastifyReply, deps: AppDeps, path: string) {
  const accept = request.headers.accept ?? '';
  if ((request.method === 'GET' || request.method === 'HEAD') && accept.includes('text/html')) {
    return reply
      .status(404)
      .type('text/html; charset=utf-8')
      .send(
        page(
          deps.config,
          'Page not found',
          html`<h1>This page is not available</h1><p><a class="inline-link" href="/all-events/">See all events</a></p>`,
        ),
      );
  }
  return reply.status(404).send({ error: `Nothing is served at ${request.method} ${path}` });
}

/** Out of demo mode: the demo paths answer 404 and unkeyed methods are refused. In demo mode, nothing. */
export function registerDemoMode(app: FastifyInstance, deps: AppDeps): void {
  if (deps.config.demo) return;
  const unkeyed = unkeyedMethods(deps);
  const refused = new Map(
    unkeyed.flatMap((method) => method.paths.map((path) => [normal(path), method.message] as const)),
  );
  if (unkeyed.length > 0) {
    app.log.warn(
      `Not offered, as demo mode is off and their keys are not set: ${unkeyed.map((m) => `${m.name} (${m.keys})`).join('; ')}.`,
    );
  }
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // The route the router matched, as registered: a path spelt another way (`/%73andbox/…`) finds the same route.
    const route = request.routeOptions.url;
    if (isDemoPath(path) || (route !== undefined && isDemoPath(route))) return notServed(request, reply, deps, path);
    const message = refused.get(normal(route ?? path));
    if (message !== undefined) return reply.status(409).send({ error: inActiveLanguage(message) });
    return undefined;
  });
}
