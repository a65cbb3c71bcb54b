/**
 * Compression of the pages made per request (the checkout app's page carries the buyer's own
 * data), with gzip on zlib's thread pool: the event loop keeps serving while a page is compressed.
 * Built files are compressed once, at build time, and served as they are (@fastify/static).
 */
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import fp from 'fastify-plugin';

async function pageCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    // Only a page that asks (reply.compress) is compressed; API replies go as they are.
    global: false,
    encodings: ['gzip'],
    threshold: 0,
    // No synchronous path, however small the page.
    syncThreshold: 0,
  });
}

export const compression = fp(pageCompression, { name: 'compression', fastify: '5.x' });
