/**
 * The local stand-in for seats.io's API (server/test/fakeSeatsio.ts) as an end-to-end process: any
 * event key and any section-row-number seat is known, free until changed. The seatsio server's SDK
 * is pointed here (SEATSIO_API_BASE); the tests route the browser's calls to seats.io's API here too.
 *
 * `npx tsx e2e/fakeSeatsio.ts` runs it on FAKE_SEATSIO_PORT (else the port e2e/servers.ts gives it)
 * with FAKE_SEATSIO_SECRET_KEY; GET /__fake/health answers once it listens.
 */
import { servers } from './servers.ts';
import { startFakeSeatsio } from '../server/test/fakeSeatsio.ts';

const fake = await startFakeSeatsio({
  secretKey: process.env.FAKE_SEATSIO_SECRET_KEY ?? 'sk-e2e-seatsio-secret',
  events: {},
  anyEvent: true,
  port: Number(process.env.FAKE_SEATSIO_PORT ?? servers.fakeSeatsio),
});
process.once('SIGTERM', () => void fake.close().then(() => process.exit(0)));
