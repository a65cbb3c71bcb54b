/**
 * The checkout's opoa (spec 001's checkout object: provider, merchant_id, overridden) comes from the
 * basket organiser's own payment account, as the database holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { organisers } from './db/schema.ts';
import { drivers, openWorld, Visitor, type TestWorld } from './test/harness.ts';

describe.each(drivers)('the checkout’s payment account on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  it('names the organiser’s own account at its provider, and whether the platform set the provider', async () => {
    const v = new Visitor(w.app);
    expect((await v.add({ [w.demo.tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
    expect((await v.checkout()).opoa).toEqual({ provider: 'stripe', merchant_id: 'acct_demo_riverside_arts', overridden: false });

    await w.database.db.update(organisers).set({ paymentMerchantId: 'acct_1RiversideOwn', paymentProviderOverridden: true }).where(eq(organisers.id, w.demo.organisers.riverside));
    expect((await v.checkout()).opoa).toEqual({ provider: 'stripe', merchant_id: 'acct_1RiversideOwn', overridden: true });
    // An empty basket has none.
    expect((await new Visitor(w.app).checkout()).opoa).toBeNull();
  });
});
