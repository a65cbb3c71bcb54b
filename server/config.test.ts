import { describe, expect, it } from 'vitest';
import { ConfigError, demoModeLine, parseConfig, testConfig } from './config.ts';

describe('configuration', () => {
  it('uses the documented defaults', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: null,
      pgliteDir: 'data/pglite',
      checkoutTimeSeconds: 600,
      captcha: 'auto',
      brandName: 'Holdfast',
      staticDir: 'dist/client',
      hcaptcha: null,
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['CHECKOUT_TIME', '0'],
    ['CAPTCHA', 'sometimes'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['SESSION_SECRET', 'short'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses %s=%s with a message naming it', (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}.*${value.replace(/[/:.]/g, '.')}`));
  });

  it('needs both hCaptcha keys or neither', () => {
    expect(() => parseConfig({ HCAPTCHA_SITEKEY: 'site' })).toThrow(/HCAPTCHA_SITEKEY and HCAPTCHA_SECRET/);
    expect(parseConfig({ HCAPTCHA_SITEKEY: 'site', HCAPTCHA_SECRET: 'secret' }).hcaptcha).toEqual({
      sitekey: 'site',
      secret: 'secret',
      apiBase: 'https://api.hcaptcha.com',
    });
    // A local stand-in for siteverify, for tests; a path is refused.
    expect(
      parseConfig({ HCAPTCHA_SITEKEY: 'site', HCAPTCHA_SECRET: 'secret', HCAPTCHA_API_BASE: 'http://127.0.0.1:4319/' })
        .hcaptcha?.apiBase,
    ).toBe('http://127.0.0.1:4319');
    expect(() =>
      parseConfig({
        HCAPTCHA_SITEKEY: 'site',
        HCAPTCHA_SECRET: 'secret',
        HCAPTCHA_API_BASE: 'http://127.0.0.1:4319/siteverify',
      }),
    ).toThrow(/HCAPTCHA_API_BASE/);
  });

  it('keys each wallet with all its variables or none', () => {
    expect(parseConfig({}).walletPasses).toEqual({ apple: null, google: null });
    expect(() => parseConfig({ GOOGLE_WALLET_ISSUER_ID: '3388000000012345678' })).toThrow(
      /GOOGLE_WALLET_SERVICE_ACCOUNT: required when Google Wallet is keyed/,
    );
    expect(() => parseConfig({ APPLE_PASS_TYPE_ID: 'pass.com.example.tickets' })).toThrow(
      /APPLE_TEAM_ID: required when Apple Wallet is keyed/,
    );
    expect(() => parseConfig({ APPLE_PASS_TYPE_ID: 'com.example' })).toThrow(/APPLE_PASS_TYPE_ID/);
    const key = '-----BEGIN PRIVATE KEY-----\\nabc\\n-----END PRIVATE KEY-----';
    const google = parseConfig({
      GOOGLE_WALLET_ISSUER_ID: '3388000000012345678',
      GOOGLE_WALLET_SERVICE_ACCOUNT: 'w@p.iam.gserviceaccount.com',
      GOOGLE_WALLET_PRIVATE_KEY: key,
    }).walletPasses.google;
    expect(google?.privateKey).toBe('-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----');
  });

  it('reads numbers and the database URL', () => {
    const c = parseConfig({
      PORT: '8080',
      CHECKOUT_TIME: '90',
      DATABASE_URL: 'postgres://u@h:5432/db',
      CAPTCHA: 'always',
    });
    expect(c).toMatchObject({
      port: 8080,
      checkoutTimeSeconds: 90,
      databaseUrl: 'postgres://u@h:5432/db',
      captcha: 'always',
    });
  });

  it('keeps ten connections to PostgreSQL per process unless configured, and refuses a pool of none', () => {
    expect(parseConfig({}).databasePoolSize).toBe(10);
    expect(parseConfig({ DATABASE_POOL_SIZE: '4', DATABASE_URL: 'postgres://u@h/db' }).databasePoolSize).toBe(4);
    expect(() => parseConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('sends four reservations at once to the database per process unless configured', () => {
    expect(parseConfig({}).reserveConcurrency).toBe(4);
    expect(parseConfig({ RESERVE_CONCURRENCY: '8' }).reserveConcurrency).toBe(8);
    expect(() => parseConfig({ RESERVE_CONCURRENCY: '0' })).toThrow(/RESERVE_CONCURRENCY/);
  });

  it('runs several processes only on PostgreSQL, and shares their request counts there', () => {
    expect(() => parseConfig({ WORKERS: '2' })).toThrow(
      /WORKERS: more than one process needs DATABASE_URL; the embedded PGlite database serves one process/,
    );
    expect(parseConfig({ WORKERS: '2', DATABASE_URL: 'postgres://u@h/db' })).toMatchObject({
      workers: 2,
      rateLimitStore: 'database',
    });
    expect(parseConfig({})).toMatchObject({ workers: 1, rateLimitStore: 'memory' });
    expect(parseConfig({ DATABASE_URL: 'postgres://u@h/db', RATE_LIMIT_STORE: 'memory' }).rateLimitStore).toBe(
      'memory',
    );
  });

  it('caps one-time codes per client address at 20 an hour unless configured', () => {
    expect(parseConfig({}).codeSendsPerAddress).toBe(20);
    expect(parseConfig({ CODE_SENDS_PER_ADDRESS: '500' }).codeSendsPerAddress).toBe(500);
    expect(() => parseConfig({ CODE_SENDS_PER_ADDRESS: '0' })).toThrow(/CODE_SENDS_PER_ADDRESS/);
  });

  describe('demo mode', () => {
    it('is on only when DEMO=1 asks for it, as npm start does', () => {
      expect(parseConfig({ DEMO: '1' }).demo).toBe(true);
      expect(parseConfig({ HOST: '0.0.0.0', NODE_ENV: 'production', DEMO: '1' }).demo).toBe(true);
    });

    it('is off without DEMO=1, whatever the address, proxy, site address or NODE_ENV', () => {
      expect(parseConfig({}).demo).toBe(false);
      for (const HOST of ['127.0.0.1', 'localhost', '::1', '0.0.0.0', 'tickets.example.com'])
        expect(parseConfig({ HOST }).demo, HOST).toBe(false);
      for (const NODE_ENV of ['prod', 'development', 'test', 'production'])
        expect(parseConfig({ NODE_ENV }).demo, NODE_ENV).toBe(false);
      // nginx in front on the same host: loopback, a trusted proxy and an https site address.
      expect(
        parseConfig({
          NODE_ENV: 'prod',
          HOST: '127.0.0.1',
          TRUST_PROXY: '1',
          PUBLIC_URL: 'https://tickets.example.com',
        }).demo,
      ).toBe(false);
      expect(parseConfig({ DEMO: '0' }).demo).toBe(false);
    });

    it.each(['yes', 'true', '2', 'on'])('refuses DEMO=%s with a message naming it', (value) => {
      expect(() => parseConfig({ DEMO: value })).toThrow(ConfigError);
      expect(() => parseConfig({ DEMO: value })).toThrow(new RegExp(`DEMO.*${value}`));
    });

    it('is told in the start log: on with what it serves and how to turn it off, or off and how to turn it on', () => {
      const line = (env: Record<string, string>) => demoModeLine(parseConfig(env));
      expect(line({ DEMO: '1' })).toBe(
        'Demo mode: on, as DEMO=1 asks (sandbox payments, demo sign-in at /signin/, /dev/mailbox); remove DEMO=1 to turn it off.',
      );
      expect(line({})).toBe('Demo mode: off (DEMO=1 turns it on).');
      expect(line({ HOST: '0.0.0.0', DEMO: '1' })).toBe(
        'Demo mode: on, as DEMO=1 asks (sandbox payments, demo sign-in at /signin/, /dev/mailbox); remove DEMO=1 to turn it off. Anyone who can reach 0.0.0.0 can sign in as any account.',
      );
    });

    it('is on in tests unless a test turns it off', () => {
      expect(testConfig().demo).toBe(true);
      expect(testConfig({ demo: false }).demo).toBe(false);
    });
  });

  it('reads every outside service’s keys at start, each a sandbox when unkeyed', () => {
    const c = parseConfig({});
    expect(c.payment).toEqual({ graceMs: 10 * 60_000, stripe: null });
    expect(c.bank).toEqual({ truelayer: null, pollIntervalMs: 1500 });
    expect(c.square).toBeNull();
    expect(c.addressApiKey).toBeNull();
    expect(c.smtpUrl).toBeNull();
    const keyed = parseConfig({
      STRIPE_PUBLISHABLE_KEY: 'pk_test_1',
      STRIPE_SECRET_KEY: 'sk_test_1',
      PAYMENT_GRACE: '5',
      SQUARE_APPLICATION_ID: 'sandbox-sq0idb-abc',
      SQUARE_ACCESS_TOKEN: 'EAAAl0123456789abcdefghij',
      SQUARE_LOCATION_ID: 'L8W9XYZ123',
      ADDRESS_API_KEY: 'key',
      SMTP_URL: 'smtp://mail.example.com:587',
    });
    expect(keyed.payment).toEqual({
      graceMs: 5 * 60_000,
      stripe: { publishableKey: 'pk_test_1', secretKey: 'sk_test_1', webhookSecret: null, apiBase: null },
    });
    expect(keyed.square).toMatchObject({
      applicationId: 'sandbox-sq0idb-abc',
      locationId: 'L8W9XYZ123',
      apiBase: null,
    });
    expect(keyed).toMatchObject({ addressApiKey: 'key', smtpUrl: 'smtp://mail.example.com:587' });
  });

  it.each([
    ['PAYMENT_GRACE', '90'],
    ['STRIPE_SECRET_KEY', 'pk_wrong'],
    ['STRIPE_API_BASE', 'http://127.0.0.1:4010/v1'],
    ['TRUELAYER_POLL_INTERVAL_MS', '5'],
    ['TRUELAYER_ENVIRONMENT', 'live'],
    ['SQUARE_LOCATION_ID', 'lowercase'],
    ['SMTP_URL', 'mail.example.com'],
    ['INSTALMENT_JOB_INTERVAL', '1.5'],
    ['INSTALMENT_JOB_INTERVAL', '-1'],
  ])('refuses the provider setting %s=%s with a ConfigError naming it', (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(
      new RegExp(`^Invalid configuration\\. ${name}: .*${value.replace(/[/:.]/g, '.')}`),
    );
  });

  it('needs every TrueLayer key once its client id is set', () => {
    expect(() => parseConfig({ TRUELAYER_CLIENT_ID: 'id', TRUELAYER_CLIENT_SECRET: 'secret' })).toThrow(
      /TRUELAYER_SIGNING_KEY_ID: required when TrueLayer is keyed/,
    );
  });

  it('runs the instalment job every ten minutes unless configured, and not at all with 0', () => {
    expect(parseConfig({}).instalmentJobIntervalMs).toBe(600_000);
    expect(parseConfig({ INSTALMENT_JOB_INTERVAL: '30' }).instalmentJobIntervalMs).toBe(30_000);
    expect(parseConfig({ INSTALMENT_JOB_INTERVAL: '0' }).instalmentJobIntervalMs).toBeNull();
  });
});
