/**
 * A message that is not the answer to its recipient's own request is written in the recipient's
 * language (docs/i18n.md): the language kept on their account, else the organiser's default, else
 * English. The payment plan's job reminds a buyer whose account keeps Welsh in Welsh, by e-mail and
 * by text; its schedule and the link to continue the order, sent while the buyer pays in a browser
 * that chose nothing, are Welsh too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { SANDBOX_CARDS } from '../contract/index.ts';
import { organisers, outbox, users } from './db/schema.ts';
import { recipientLanguage } from './domain/accountLanguage.ts';
import { runInstalmentJob, type JobDeps } from './domain/instalments/job.ts';
import { sandboxSavedCards } from './domain/instalments/offSession.ts';
import { drivers, openWorld, Visitor, type TestWorld } from './test/harness.ts';

describe.each(drivers)('the language of the messages a buyer did not ask for just now, on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  const PUBLIC = 'http://holdfast.test';
  const job = (): JobDeps => ({
    db: w.database.db,
    cards: sandboxSavedCards(),
    mail: { mailer: { transport: null, from: 'test@holdfast.test' }, brandName: 'Holdfast', publicUrl: PUBLIC },
    walletUrl: `${PUBLIC}/account/wallet/`,
  });
  const mailTo = (to: string) =>
    w.database.db.select().from(outbox).where(eq(outbox.recipient, to)).orderBy(asc(outbox.id));

  it('is the account’s, else the organiser’s default, else English', async () => {
    const { db } = w.database;
    const [welsh] = await db
      .insert(users)
      .values({ email: `cymraeg-${driver}@example.com`, firstName: 'Nia', lastName: 'Jones', language: 'cy' })
      .returning();
    const [organiser] = await db.select().from(organisers).limit(1);
    expect(await recipientLanguage(db, { userId: welsh!.id })).toBe('cy');
    expect(await recipientLanguage(db, { email: welsh!.email, organiserId: organiser!.id })).toBe('cy');
    expect(await recipientLanguage(db, { email: `nobody-${driver}@example.com`, organiserId: organiser!.id })).toBe(
      'en-GB',
    );
    await db.update(organisers).set({ defaultLanguage: 'cy' }).where(eq(organisers.id, organiser!.id));
    expect(await recipientLanguage(db, { email: `nobody-${driver}@example.com`, organiserId: organiser!.id })).toBe(
      'cy',
    );
    expect(await recipientLanguage(db, { email: `nobody-${driver}@example.com` })).toBe('en-GB');
    await db.update(organisers).set({ defaultLanguage: 'en-GB' }).where(eq(organisers.id, organiser!.id));
  });

  it('writes the plan’s schedule and the job’s reminder, e-mail and text, in the Welsh the buyer’s account keeps', async () => {
    const { db } = w.database;
    const [buyer] = await db
      .insert(users)
      .values({ email: `plan-cy-${driver}@example.com`, firstName: 'Rhys', lastName: 'Owen', language: 'cy' })
      .returning();
    const v = new Visitor(w.app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${buyer!.id}` })).statusCode).toBe(303);
    expect((await v.add({ [w.demo.plans.weekend]: 1 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    const reference = (await v.checkout()).sale_reference!;
    const card = (
      await v.call('saveSandboxCard', { number: SANDBOX_CARDS.success, expiry: '12/34', cvc: '123' })
    ).json();
    expect(
      (
        await v.call('payWithInstalment', {
          instalment_option: '2',
          contact_number: '07700 900456',
          new_payment_method: card,
        })
      ).json(),
    ).toEqual({ status: 'success', url: null });
    expect((await mailTo(buyer!.email)).map((m) => m.subject)).toEqual([
      `Parhewch â'ch archeb ${reference}`,
      `Eich amserlen dalu ar gyfer archeb ${reference}`,
    ]);

    // Three days before the second instalment, the job's reminder.
    expect(await runInstalmentJob(job(), new Date('2026-06-28T12:00:00Z'))).toMatchObject({
      reminded: 1,
      textsSent: 1,
    });
    const reminder = (await mailTo(buyer!.email)).at(-1)!;
    expect(reminder.subject).toBe(
      `Nodyn atgoffa: mae rhandaliad 2 ar gyfer archeb ${reference} yn ddyledus ar 01/07/2026`,
    );
    expect(reminder.body).toContain('yng ngosodiadau eich cyfrif');
    const [text] = (await mailTo('+447700900456')).filter((m) => m.body.includes(reference));
    expect(text!.body).toBe(
      `Holdfast: bydd rhandaliad 2 o £94.50 ar gyfer archeb ${reference} yn cael ei gymryd o'ch cerdyn sydd wedi'i gadw ar 01/07/2026.`,
    );
  });
});
