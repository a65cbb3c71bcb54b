/**
 * The visitor's checkout and user as the calls answer them (GET checkout, GET user), read with the
 * session's sale and user; the checkout page sends both with its first screen.
 */
import type { FastifyRequest } from 'fastify';
import { buildCheckout } from '../domain/checkout.ts';
import { findUser, toWireUser } from '../domain/users.ts';
import type { AppDeps } from './deps.ts';
import { saleIdOf, userIdOf } from './session.ts';

export async function readUser(deps: AppDeps, request: FastifyRequest) {
  const user = await findUser(deps.db, userIdOf(request));
  return { user: user ? toWireUser(user) : null };
}

export function readCheckout(deps: AppDeps, request: FastifyRequest) {
  return buildCheckout(deps.db, saleIdOf(request), deps.clock(), {
    captchaSitekey: deps.config.captcha === 'never' ? null : deps.captcha.sitekey,
    userId: userIdOf(request),
    maxPerOrder: deps.config.maxPerOrder,
  });
}

/** What the checkout page's first screen needs, sent with the page: the replies of GET checkout and GET user. */
export async function checkoutPageData(deps: AppDeps, request: FastifyRequest) {
  const [checkout, user] = await Promise.all([readCheckout(deps, request), readUser(deps, request)]);
  return { checkout, user };
}
