import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';

describe('configuration', () => {
  it('uses the documented defaults', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({ port: 3000, host: '127.0.0.1', databaseUrl: null, pgliteDir: 'data/pglite', checkoutTimeSeconds: 600, captcha: 'auto', brandName: 'Holdfast', staticDir: 'dist/client', hcaptcha: null });
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
    expect(parseConfig({ HCAPTCHA_SITEKEY: 'site', HCAPTCHA_SECRET: 'secret' }).hcaptcha).toEqual({ sitekey: 'site', secret: 'secret' });
  });

  it('reads numbers and the database URL', () => {
    const c = parseConfig({ PORT: '8080', CHECKOUT_TIME: '90', DATABASE_URL: 'postgres://u@h:5432/db', CAPTCHA: 'always' });
    expect(c).toMatchObject({ port: 8080, checkoutTimeSeconds: 90, databaseUrl: 'postgres://u@h:5432/db', captcha: 'always' });
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
    expect(() => parseConfig({ WORKERS: '2' })).toThrow(/WORKERS: more than one process needs DATABASE_URL; the embedded PGlite database serves one process/);
    expect(parseConfig({ WORKERS: '2', DATABASE_URL: 'postgres://u@h/db' })).toMatchObject({ workers: 2, rateLimitStore: 'database' });
    expect(parseConfig({})).toMatchObject({ workers: 1, rateLimitStore: 'memory' });
    expect(parseConfig({ DATABASE_URL: 'postgres://u@h/db', RATE_LIMIT_STORE: 'memory' }).rateLimitStore).toBe('memory');
  });

  it('caps one-time codes per client address at 20 an hour unless configured', () => {
    expect(parseConfig({}).codeSendsPerAddress).toBe(20);
    expect(parseConfig({ CODE_SENDS_PER_ADDRESS: '500' }).codeSendsPerAddress).toBe(500);
    expect(() => parseConfig({ CODE_SENDS_PER_ADDRESS: '0' })).toThrow(/CODE_SENDS_PER_ADDRESS/);
  });
});
