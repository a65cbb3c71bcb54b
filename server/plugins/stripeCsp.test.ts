/**
 * The Content-Security-Policy and the card processor: Stripe's script, frames and API are allowed
 * only when Stripe is keyed; the sandbox processor leaves the policy to this origin alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { parseConfig, testConfig } from '../config.ts';
import { paymentWiring } from '../providers/payment.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { directives } from '../test/csp.ts';

/** The documents whose policy names the card processor; the API's JSON replies allow nothing at all (server/web.test.ts). */
const PAGES = ['/checkout/', '/all-events/'];

describe.each(drivers)('the policy and the card processor on %s', (driver) => {
  let w: TestWorld;
  let keyed: FastifyInstance;
  beforeAll(async () => {
    w = await openWorld(driver);
    keyed = await buildApp({
      db: w.database.db,
      config: testConfig({}),
      clock: () => w.clock.now,
      logger: false,
      payment: paymentWiring(
        parseConfig({ STRIPE_PUBLISHABLE_KEY: 'pk_test_holdfast', STRIPE_SECRET_KEY: 'sk_test_holdfast' }),
        () => Promise.reject(new Error('offline')),
      ),
    });
    await keyed.ready();
  });
  afterAll(async () => {
    await keyed?.close();
    await w?.close();
  });

  it('names no Stripe source with the sandbox processor', async () => {
    const v = new Visitor(w.app);
    for (const url of PAGES) {
      const csp = directives((await v.request({ method: 'GET', url })).headers['content-security-policy']);
      expect([...csp.values()].flat().join(' '), url).not.toMatch(/stripe/);
      expect(csp.get('frame-src'), url).toEqual(["'none'"]);
      expect(csp.get('connect-src'), url).toEqual(["'self'"]);
    }
  });

  it('allows Stripe.js, its frames and its API, and nothing else of Stripe, when keyed', async () => {
    const v = new Visitor(keyed);
    for (const url of PAGES) {
      const csp = directives((await v.request({ method: 'GET', url })).headers['content-security-policy']);
      expect(csp.get('script-src'), url).toContain('https://js.stripe.com');
      expect(csp.get('frame-src'), url).toEqual(['https://js.stripe.com', 'https://hooks.stripe.com']);
      expect(csp.get('connect-src'), url).toEqual(["'self'", 'https://api.stripe.com']);
      for (const d of [
        'default-src',
        'style-src',
        'img-src',
        'font-src',
        'worker-src',
        'object-src',
        'base-uri',
        'form-action',
        'frame-ancestors',
      ]) {
        expect((csp.get(d) ?? []).join(' '), `${url} ${d}`).not.toMatch(/stripe/);
      }
      expect(csp.get('script-src')!.join(' '), url).not.toMatch(/unsafe/);
    }
  });
});
