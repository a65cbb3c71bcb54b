/**
 * Ports of the end-to-end servers; they differ only in configuration (see playwright.config.ts).
 * `E2E_PORT_BASE` moves them all, so two runs on one machine do not collide.
 */
const base = Number(process.env.E2E_PORT_BASE ?? 4310);

export const servers = {
  main: base,
  captcha: base + 1,
  /** The server whose clock the tests move (DEV_CLOCK=1): e2e/later.spec.ts alone uses it. */
  clock: base + 2,
  stripe: base + 3,
  /** The local stand-in for Stripe's API that the stripe server is keyed against (e2e/fakeStripe.ts). */
  fakeStripe: base + 4,
  /** Answers once every server above answers (e2e/serveAll.ts). */
  ready: base + 5,
  /** The server keyed for seats.io, its plans seats.io's (e2e/seatsio.spec.ts alone uses it). */
  seatsio: base + 6,
  /** The local stand-in for seats.io's API that the seatsio server is keyed against (e2e/fakeSeatsio.ts). */
  fakeSeatsio: base + 7,
  /** The server keyed for hCaptcha, always asking for it (e2e/hcaptcha.spec.ts alone uses it). */
  hcaptcha: base + 8,
  /** The local stand-in for hCaptcha's widget script and siteverify (e2e/fakeHcaptcha.ts). */
  fakeHcaptcha: base + 9,
} as const;
