/** Accounts for server tests: the one-time code sent to an address, signing in with it, and an account made directly. */
import { expect } from 'vitest';
import * as t from '../db/schema.ts';
import { latestMail } from '../mail/index.ts';
import type { TestWorld, Visitor } from './harness.ts';

export async function codeSentTo(db: TestWorld['database']['db'], email: string): Promise<string> {
  const [mail] = await latestMail(db, { recipient: email });
  const code = /Your one-time sign in or registration code is (\d{6})/.exec(mail?.body ?? '')?.[1];
  if (!code) throw new Error(`no code sent to ${email}`);
  return code;
}

/** Signs a visitor in on the sign-in page with the code sent to `email` (an account's address). */
export async function signInAs(world: TestWorld, v: Visitor, email: string): Promise<void> {
  expect(
    (await v.request({ method: 'POST', url: '/signin/', body: new URLSearchParams({ email }).toString() })).statusCode,
  ).toBe(200);
  const code = await codeSentTo(world.database.db, email);
  const res = await v.request({
    method: 'POST',
    url: '/signin/code/',
    body: new URLSearchParams({ email, code }).toString(),
  });
  expect(res.statusCode).toBe(303);
}

export async function accountFor(world: TestWorld, email: string): Promise<number> {
  const [user] = await world.database.db
    .insert(t.users)
    .values({ email, firstName: 'Listed', lastName: 'Buyer', viewType: 'customer' })
    .returning();
  return user!.id;
}
