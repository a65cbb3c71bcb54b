/**
 * The ceiling the read figures are measured against: a bare route answering `{ ok: true }` from the
 * project's own Fastify, nothing registered around it. Started by bench/reads.ts in its own process.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ ok: true }));
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`bare Fastify running at ${address}`);
