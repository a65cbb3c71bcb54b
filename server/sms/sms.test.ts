/**
 * Text messages: a contact number in E.164 for sending, the outbox row each message leaves, and the
 * Twilio adapter's request through Twilio's own SDK (an `httpClient` of the test's records what the
 * SDK would send to Twilio and answers as Twilio does), delivered or refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { outbox } from '../db/schema.ts';
import { ConfigError, smsSettings } from '../config.ts';
import { phoneForSms, sendSms, twilioSender, type TwilioClientOptions } from './index.ts';
import { drivers, openWorld, type TestWorld } from '../test/harness.ts';

const SETTINGS = {
  accountSid: `AC${'0123456789abcdef'.repeat(2)}`,
  authToken: 'test-auth-token-0123456789',
  from: '+441170000000',
};

function fakeTwilio(answer: { statusCode: number; body: object }) {
  const seen: { method: string; uri: string; data?: unknown; headers?: Record<string, string> }[] = [];
  const httpClient: NonNullable<TwilioClientOptions['httpClient']> = {
    async request(opts) {
      seen.push(opts);
      return { statusCode: answer.statusCode, body: JSON.stringify(answer.body), headers: {} };
    },
  };
  return { seen, httpClient };
}

describe('contact numbers for text messages', () => {
  it('writes UK numbers with +44 and keeps a given country code', () => {
    expect(phoneForSms('07700 900123')).toBe('+447700900123');
    expect(phoneForSms('(07700) 900-123')).toBe('+447700900123');
    expect(phoneForSms('+44 (0)7700 900.123')).toBe('+447700900123');
    expect(phoneForSms('0044 7700 900123')).toBe('+447700900123');
    expect(phoneForSms('+1 415 555 0100')).toBe('+14155550100');
  });

  it('takes Twilio’s three variables together or not at all', () => {
    expect(smsSettings({})).toBeNull();
    expect(
      smsSettings({
        TWILIO_ACCOUNT_SID: SETTINGS.accountSid,
        TWILIO_AUTH_TOKEN: SETTINGS.authToken,
        TWILIO_FROM: SETTINGS.from,
      }),
    ).toEqual(SETTINGS);
    expect(() => smsSettings({ TWILIO_ACCOUNT_SID: SETTINGS.accountSid })).toThrow(ConfigError);
    expect(() =>
      smsSettings({ TWILIO_ACCOUNT_SID: 'nope', TWILIO_AUTH_TOKEN: SETTINGS.authToken, TWILIO_FROM: SETTINGS.from }),
    ).toThrow(/TWILIO_ACCOUNT_SID/);
    expect(() =>
      smsSettings({
        TWILIO_ACCOUNT_SID: SETTINGS.accountSid,
        TWILIO_AUTH_TOKEN: SETTINGS.authToken,
        TWILIO_FROM: '07700',
      }),
    ).toThrow(/TWILIO_FROM/);
  });
});

describe.each(drivers)('sending text messages on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  }, 180_000);
  afterAll(async () => w?.close());

  it('keeps a message in the outbox when no provider is keyed', async () => {
    const row = await sendSms(w.database.db, null, { to: '+447700900001', text: 'Kept here' }, w.clock.now);
    expect(row).toMatchObject({
      channel: 'sms',
      recipient: '+447700900001',
      body: 'Kept here',
      sentAt: null,
      failure: null,
    });
  });

  it('sends through Twilio’s SDK to its Messages resource, then forgets the body', async () => {
    const twilio = fakeTwilio({
      statusCode: 201,
      body: { sid: 'SM0123456789abcdef0123456789abcdef', status: 'queued', to: '+447700900002', body: 'Sent' },
    });
    const row = await sendSms(
      w.database.db,
      twilioSender(SETTINGS, { httpClient: twilio.httpClient }),
      { to: '+447700900002', text: 'Sent' },
      w.clock.now,
    );
    expect(twilio.seen).toHaveLength(1);
    const [call] = twilio.seen;
    expect(call!.method.toLowerCase()).toBe('post');
    expect(call!.uri).toBe(`https://api.twilio.com/2010-04-01/Accounts/${SETTINGS.accountSid}/Messages.json`);
    expect(call!.data).toMatchObject({ To: '+447700900002', From: SETTINGS.from, Body: 'Sent' });
    expect(row).toMatchObject({ channel: 'sms', body: '', sentAt: w.clock.now, failure: null });
  });

  it('names a Messaging Service instead of a number when configured so', async () => {
    const twilio = fakeTwilio({ statusCode: 201, body: { sid: 'SM1', status: 'accepted' } });
    const service = `MG${'fedcba9876543210'.repeat(2)}`;
    await sendSms(
      w.database.db,
      twilioSender({ ...SETTINGS, from: service }, { httpClient: twilio.httpClient }),
      { to: '+447700900003', text: 'Via a service' },
      w.clock.now,
    );
    expect(twilio.seen[0]!.data).toMatchObject({
      To: '+447700900003',
      MessagingServiceSid: service,
      Body: 'Via a service',
    });
    expect(twilio.seen[0]!.data).not.toHaveProperty('From');
  });

  it('records Twilio’s refusal on the outbox row and tells the caller', async () => {
    const twilio = fakeTwilio({
      statusCode: 400,
      body: { code: 21211, message: "The 'To' number +447700900004 is not a valid phone number.", status: 400 },
    });
    await expect(
      sendSms(
        w.database.db,
        twilioSender(SETTINGS, { httpClient: twilio.httpClient }),
        { to: '+447700900004', text: 'Refused' },
        w.clock.now,
      ),
    ).rejects.toThrow(/not a valid phone number/);
    const [row] = await w.database.db.select().from(outbox).where(eq(outbox.recipient, '+447700900004'));
    expect(row).toMatchObject({ channel: 'sms', body: 'Refused', sentAt: null });
    expect(row!.failure).toMatch(/not a valid phone number/);
  });
});
