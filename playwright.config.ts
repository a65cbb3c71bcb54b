import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servers } from './e2e/servers.ts';

/**
 * End-to-end tests drive the real app and server in Chromium: Debian's headless shell
 * (chromium-headless-shell, the same engine without the browser's window and UI, as Playwright's own
 * headless runs use; a sixth less work per test than the full browser) or Debian's chromium when
 * present, else Playwright's own browser. The servers differ only in configuration: the main one,
 * one that always asks for a captcha, one whose clock the tests move (e2e/later.spec.ts) so holds run
 * out and slow answers come without waiting, one keyed for Stripe, whose API is a local stand-in (e2e/fakeStripe.ts) started with them,
 * and one keyed for seats.io with every plan seats.io's, against its own stand-in (e2e/fakeSeatsio.ts).
 */
const chromiumPath = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
].find((p) => existsSync(p));

/**
 * Every simulated buyer of the suite comes from 127.0.0.1, so the per-buyer cap on held tickets,
 * the per-address rate limit and the per-address cap on one-time codes (all count by client
 * address) would soon refuse unrelated tests' calls. Each is proven by the server tests; here each
 * test is a different buyer.
 */
const ONE_ADDRESS_MANY_BUYERS = {
  MAX_HELD_PER_BUYER: '100000',
  RATE_LIMIT_PER_MINUTE: '100000',
  CODE_SENDS_PER_ADDRESS: '100000',
};

/**
 * Chromium's own features turned off: those Playwright turns off (the last --disable-features wins,
 * so its list is repeated here) and the address bar's popups, which Chromium otherwise draws in a
 * renderer of their own for every page a test opens, where no one can see them.
 */
const DISABLED_FEATURES = `--disable-features=${[
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
].join(',')}`;

const STRIPE_KEYS = { STRIPE_PUBLISHABLE_KEY: 'pk_test_holdfast', STRIPE_SECRET_KEY: 'sk_test_holdfast' };
const STRIPE_WEBHOOK_SECRET = 'whsec_e2e_holdfast';

/** The run's database, migrated and seeded once; each server starts on its own copy (e2e/serve.ts). */
const RUN_DATABASE = join(tmpdir(), `holdfast-e2e-database-${process.pid}`);

/** hCaptcha's published test sitekey and secret: keys of no account, checked here by the stand-in. */
const HCAPTCHA_KEYS = {
  HCAPTCHA_SITEKEY: '10000000-ffff-ffff-ffff-000000000001',
  HCAPTCHA_SECRET: '0x0000000000000000000000000000000000000000',
};

const SEATSIO_KEYS = { SEATSIO_PUBLIC_KEY: 'pk-e2e-seatsio-public', SEATSIO_SECRET_KEY: 'sk-e2e-seatsio-secret' };

function server(
  name: Exclude<keyof typeof servers, 'fakeStripe' | 'fakeSeatsio' | 'fakeHcaptcha' | 'ready'>,
  env: Record<string, string>,
) {
  const port = servers[name];
  const dir = join(tmpdir(), `holdfast-e2e-${name}-${process.pid}`);
  return {
    name,
    script: 'e2e/serve.ts',
    url: `http://127.0.0.1:${port}/ajax/checkout/checkout/get/`,
    env: {
      DEMO: '1',
      PORT: String(port),
      HOST: '127.0.0.1',
      PGLITE_DIR: dir,
      E2E_TEMPLATE_DIR: RUN_DATABASE,
      LOG_LEVEL: 'warn',
      DEMO_ON_SALE_DELAY_SECONDS: '86400',
      ...ONE_ADDRESS_MANY_BUYERS,
      ...env,
    },
  };
}

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  // Four at once on two cores: a test spends about half its time waiting (on the network, the app's
  // timers, an assertion's next try), so two workers left the cores half idle.
  workers: 4,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${servers.main}`,
    // A failed test keeps its trace: actions, DOM snapshots, network and console. The screencast is
    // left out: recording it for every test cost a quarter of the suite's time.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(chromiumPath ? { executablePath: chromiumPath } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        DISABLED_FEATURES,
      ],
    },
  },
  /**
   * Each scenario runs once, at the width that matters. The desktop project runs everything but the
   * phone's own checks; the phone project re-runs what a buyer sees at 360 px (layout, pictures,
   * thumb-sized targets) and nothing whose result cannot depend on the width (tagged @anyWidth).
   * Scans that need both widths reach their screen once, as a phone, and look at it at 360 px and
   * at 1280 px (the accessibility screens, tagged @bothWidths elsewhere): the phone project's alone.
   */
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
      testIgnore: /(phone|purchase|accessibility)\.spec\.ts/,
      grepInvert: /@bothWidths/,
    },
    {
      name: 'phone',
      use: { ...devices['Desktop Chrome'], viewport: { width: 360, height: 740 }, isMobile: false, hasTouch: true },
      testMatch: /(newcomer|screens|accessibility|phone|catalogue|purchase)\.spec\.ts/,
      grepInvert: /@anyWidth/,
    },
  ],
  // Every server starts at once (e2e/serveAll.ts); Playwright would start them one after another.
  webServer: {
    command: 'npx tsx e2e/serveAll.ts',
    url: `http://127.0.0.1:${servers.ready}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // Time for the servers to stop and their databases to be removed.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      E2E_READY_PORT: String(servers.ready),
      E2E_SERVERS: JSON.stringify([
        // Bank transfer polls every 100 ms here, so the stop at 60 comes in seconds (spec 001 §9's 1.5 s otherwise).
        server('main', { CAPTCHA: 'never', TRUELAYER_POLL_INTERVAL_MS: '100' }),
        server('captcha', { CAPTCHA: 'always' }),
        // Its clock is moved by the tests (POST /dev/clock) to see holds run out and slow banks answer;
        // polling every 300 ms, the 3/6/9 messages can be watched.
        server('clock', { CAPTCHA: 'never', TRUELAYER_POLL_INTERVAL_MS: '300', DEV_CLOCK: '1' }),
        // Stripe keyed (test keys of no account) against the local stand-in for Stripe's API below; the
        // browser's calls to js.stripe.com and api.stripe.com are routed to it by the tests.
        server('stripe', {
          CAPTCHA: 'never',
          ...STRIPE_KEYS,
          STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET,
          STRIPE_API_BASE: `http://127.0.0.1:${servers.fakeStripe}`,
        }),
        // seats.io keyed against the local stand-in for its API below, every plan seats.io's; the browser's
        // calls to seats.io's CDN and API are routed by the tests (e2e/seatsio.spec.ts).
        server('seatsio', {
          CAPTCHA: 'never',
          ...SEATSIO_KEYS,
          SEATSIO_API_BASE: `http://127.0.0.1:${servers.fakeSeatsio}`,
          E2E_SEATSIO_PLANS: '1',
        }),
        // hCaptcha keyed, always asked for, against the local stand-in for its siteverify; the browser's
        // request for hCaptcha's widget script is routed to the stand-in's by the test (e2e/hcaptcha.spec.ts).
        server('hcaptcha', {
          CAPTCHA: 'always',
          ...HCAPTCHA_KEYS,
          HCAPTCHA_API_BASE: `http://127.0.0.1:${servers.fakeHcaptcha}`,
        }),
        {
          name: 'fakeHcaptcha',
          script: 'e2e/fakeHcaptcha.ts',
          url: `http://127.0.0.1:${servers.fakeHcaptcha}/__fake/health`,
          env: {
            FAKE_HCAPTCHA_PORT: String(servers.fakeHcaptcha),
            FAKE_HCAPTCHA_SECRET: HCAPTCHA_KEYS.HCAPTCHA_SECRET,
            FAKE_HCAPTCHA_SITEKEY: HCAPTCHA_KEYS.HCAPTCHA_SITEKEY,
          },
        },
        {
          name: 'fakeSeatsio',
          script: 'e2e/fakeSeatsio.ts',
          url: `http://127.0.0.1:${servers.fakeSeatsio}/__fake/health`,
          env: {
            FAKE_SEATSIO_PORT: String(servers.fakeSeatsio),
            FAKE_SEATSIO_SECRET_KEY: SEATSIO_KEYS.SEATSIO_SECRET_KEY,
          },
        },
        {
          name: 'fakeStripe',
          script: 'e2e/fakeStripe.ts',
          url: `http://127.0.0.1:${servers.fakeStripe}/__fake/health`,
          env: {
            FAKE_STRIPE_PORT: String(servers.fakeStripe),
            FAKE_STRIPE_SECRET_KEY: STRIPE_KEYS.STRIPE_SECRET_KEY,
            FAKE_STRIPE_PUBLISHABLE_KEY: STRIPE_KEYS.STRIPE_PUBLISHABLE_KEY,
            FAKE_STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET,
            FAKE_STRIPE_WEBHOOK_URL: `http://127.0.0.1:${servers.stripe}/ajax/checkout/stripe/webhook/`,
          },
        },
      ]),
    },
  },
});
