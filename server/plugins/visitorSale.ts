/**
 * The visitor's sale: the one their sale cookie names (bound to their session), when it names no
 * buyer or names the session's signed-in user; read from the database at most once per
 * request, whichever routes and checks ask for it. Each route says in its own words what it means
 * that there is none.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/index.ts';
import { findSale, type Sale } from '../domain/sales.ts';
import { saleIdOf, userIdOf } from '../http/session.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The sale the session names, or null when it names none or one that is gone. */
    visitorSale(): Promise<Sale | null>;
  }
}

async function visitorSalePlugin(app: FastifyInstance, opts: { db: Database }): Promise<void> {
  const read = new WeakMap<FastifyRequest, Promise<Sale | null>>();
  app.decorateRequest('visitorSale', function (this: FastifyRequest) {
    let sale = read.get(this);
    if (!sale) {
      // A sale that names its buyer is theirs alone: served only to a session signed in as them.
      const userId = userIdOf(this);
      sale = findSale(opts.db, saleIdOf(this)).then((found) =>
        found && found.userId !== null && found.userId !== userId ? null : found,
      );
      read.set(this, sale);
    }
    return sale;
  });
}

export const visitorSale = fp(visitorSalePlugin, { name: 'visitor-sale', fastify: '5.x', dependencies: ['session'] });
