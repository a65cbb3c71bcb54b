/**
 * Whether an error means the database could not be reached or could not take writes just then: a
 * failover under way, a restart, a connection cut. The request did not finish, or finished without
 * its answer reaching us; either way the buyer is told to try again (503), and the calls that move
 * stock or money are idempotent, so trying again takes nothing twice.
 */
export const DATABASE_UNAVAILABLE =
  'The checkout lost touch with its database for a moment. Nothing was taken twice: please try again.';

/** SQLSTATEs of a server going away or not taking writes: connection exceptions (08), shutdowns (57P0x), too many connections, a read-only server. */
const CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '25006',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08007',
  '08P01',
]);
/** What Node and node-postgres say of a connection lost or never made. */
const NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);
const MESSAGES = [
  /Connection terminated/i,
  /connection error and is not queryable/i,
  /timeout exceeded when trying to connect/i,
  /Client was closed and is not queryable/i,
  /Query read timeout/i,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  // Drizzle wraps the driver's error as its cause.
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CODES.has(code) || NODE_CODES.has(code))) return true;
    if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
  }
  return false;
}
