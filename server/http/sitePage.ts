/**
 * A page the server draws for a buyer, with the site header's basket count (spec 001 §9) read from
 * that buyer's own basket: every page a buyer browses shows it, as the checkout app does.
 */
import type { FastifyRequest } from 'fastify';
import { basketItemCount } from '../domain/basketCount.ts';
import { type Html, page, type SiteSection } from '../views/html.ts';
import type { AppDeps } from './deps.ts';
import { saleIdOf } from './session.ts';

export type SitePage = (request: FastifyRequest, title: string, body: Html, current?: SiteSection) => Promise<string>;

export function sitePage({ db, config }: Pick<AppDeps, 'db' | 'config'>): SitePage {
  return async (request, title, body, current = null) =>
    page(config, title, body, current, await basketItemCount(db, saleIdOf(request)));
}
