/**
 * The card taken by Stripe's Payment Element when the server is keyed for Stripe. Nothing here
 * reaches Stripe: Stripe.js is a small stand-in served for https://js.stripe.com by the test
 * (elements, create, mount, confirmPayment), and get_stripe_token is answered with a
 * PaymentIntent's client secret as Stripe would give the server. The sandbox server never loads
 * Stripe's code.
 */
import type { Page, Request, TestInfo } from '@playwright/test';
import { expectNoAxeViolations, expectTargetSizes } from './a11y.ts';
import { addFromEventPage, answerLanternQuestions, expect, expectStep, reserveButton, test, urls } from './support.ts';

const CLIENT_SECRET = 'pi_3E2eHoldfast_secret_e2e';

/** Stripe.js as far as the Payment Element and confirmPayment go; what it was asked is kept on window. */
const FAKE_STRIPE_JS = `(() => {
  const seen = (window.__stripeFake = { keys: [], elementsOptions: null, created: null, confirms: [] });
  function Stripe(key) {
    seen.keys.push(key);
    let container = null;
    let ready = false;
    const handlers = {};
    const fire = (name) => (handlers[name] || []).forEach((h) => h({ elementType: 'payment' }));
    const element = {
      mount(node) {
        container = typeof node === 'string' ? document.querySelector(node) : node;
        const label = document.createElement('label');
        label.className = 'field';
        const text = document.createElement('span');
        text.className = 'field__label';
        text.textContent = 'Card number (Stripe)';
        const input = document.createElement('input');
        input.className = 'input';
        input.autocomplete = 'cc-number';
        label.append(text, input);
        container.append(label);
        setTimeout(() => { ready = true; fire('ready'); }, 30);
      },
      on(name, h) { (handlers[name] = handlers[name] || []).push(h); if (name === 'ready' && ready) setTimeout(() => h({ elementType: 'payment' }), 0); return element; },
      off(name, h) { handlers[name] = (handlers[name] || []).filter((x) => x !== h); return element; },
      update() {},
      unmount() {},
      destroy() { if (container) container.replaceChildren(); },
    };
    const elements = { create(type) { seen.created = type; return element; }, getElement() { return element; }, update() {} };
    return {
      elements(options) { seen.elementsOptions = options; return elements; },
      createToken() {}, createPaymentMethod() {}, confirmCardPayment() {},
      _registerWrapper() {}, registerAppInfo() {},
      async confirmPayment(params) {
        const number = container.querySelector('input').value.replace(/\\s/g, '');
        seen.confirms.push({ returnUrl: params.confirmParams.return_url, number, sameElements: params.elements === elements });
        if (!number) return { error: { type: 'validation_error', message: 'Your card number is incomplete.' } };
        return { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } };
      },
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();`;

interface Seen {
  keys: string[];
  elementsOptions: { clientSecret?: string; appearance?: unknown } | null;
  created: string | null;
  confirms: { returnUrl: string; number: string; sameElements: boolean }[];
}

/** Requests for Stripe's script and for the app's Stripe chunk, as they happen. */
function watchStripeLoads(page: Page): Request[] {
  const loads: Request[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith('https://js.stripe.com/') || /\/assets\/StripeCard-[^/]+\.js$/.test(r.url())) loads.push(r);
  });
  return loads;
}

async function toLanternPayment(page: Page) {
  await page.goto('/signin/');
  await page.getByRole('button', { name: 'Continue as Tom Okafor' }).click();
  await addFromEventPage(page, 'Ashcombe Winter Lantern Trail', { tickets: { 'Adult (5pm entry)': 1 } });
  await reserveButton(page).click();
  await expectStep(page, 'login');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'marketing_preferences');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'ticket_questions_before');
  await answerLanternQuestions(page);
  await expectStep(page, 'payment');
}

async function fillBilling(page: Page) {
  await page.getByLabel('First name').fill('Tom');
  await page.getByLabel('Last name').fill('Okafor');
  await page.getByLabel('Address line 1').fill('4 Mill Lane');
  await page.getByLabel('Town or city').fill('Cirencester');
  await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
}

async function answerGetToken(page: Page) {
  await page.route('**/ajax/checkout/stripe/get_token/', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ public_key: 'pk_test_holdfast', client_secret: CLIENT_SECRET }) }),
  );
}

async function snap(page: Page, testInfo: TestInfo, name: string) {
  for (const [label, width] of [['phone', 360], ['desktop', 1280]] as const) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    await page.screenshot({ path: testInfo.outputPath(`${name}-${label}.png`), fullPage: true });
  }
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { __stripeFake: Seen }).__stripeFake);

test.describe('with Stripe keyed', () => {
  test.use({ baseURL: urls.stripe });

  test('the Payment Element takes the card on the payment step only, and Stripe’s refusal is shown', async ({ page }, testInfo) => {
    const loads = watchStripeLoads(page);
    await page.route('https://js.stripe.com/**', (route) => route.fulfill({ status: 200, contentType: 'application/javascript', body: FAKE_STRIPE_JS }));
    await answerGetToken(page);
    await toLanternPayment(page);
    await fillBilling(page);
    // Nothing of Stripe is fetched before the card is to be taken.
    expect(loads.map((r) => r.url())).toEqual([]);

    await page.getByRole('button', { name: /^Pay £/ }).click();
    const card = page.getByLabel('Card number (Stripe)');
    await expect(card).toBeVisible();
    expect(loads.some((r) => /\/assets\/StripeCard-/.test(r.url()))).toBe(true);
    expect(loads.filter((r) => r.url().startsWith('https://js.stripe.com/')).map((r) => new URL(r.url()).pathname)).toEqual(['/endive/stripe.js']);
    const before = await seen(page);
    expect(before.keys).toEqual(['pk_test_holdfast']);
    expect(before.elementsOptions?.clientSecret).toBe(CLIENT_SECRET);
    expect(before.created).toBe('payment');
    // While Stripe has the card, the details above cannot change.
    await expect(page.getByLabel('Postcode or zip code')).toBeDisabled();
    await snap(page, testInfo, 'stripe-card');
    await expectNoAxeViolations(page, 'the payment step with the Payment Element');
    await page.setViewportSize({ width: 360, height: 740 });
    await expectTargetSizes(page, 'the payment step with the Payment Element');
    expect((await seen(page)).elementsOptions).toMatchObject({ appearance: { theme: 'stripe', variables: { colorPrimary: '#0f766e' } } });

    // Fields left incomplete stay with the Element, for the buyer to correct.
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect.poll(async () => (await seen(page)).confirms.length).toBe(1);
    await expect(card).toBeVisible();

    await card.fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
    await expect(card).toBeHidden();
    const after = await seen(page);
    expect(after.confirms[1]).toEqual({ returnUrl: `${urls.stripe}/do/checkout/stripe_auth/`, number: '4000000000000002', sameElements: true });
    // The step is ready again: the details can change and Pay starts afresh.
    await expect(page.getByLabel('Postcode or zip code')).toBeEnabled();
    await expect(page.getByRole('button', { name: /^Pay £/ })).toBeEnabled();
    await snap(page, testInfo, 'stripe-declined');
  });

  test('Stripe.js that cannot be reached says so', async ({ page }) => {
    await page.route('https://js.stripe.com/**', (route) => route.abort('failed'));
    await answerGetToken(page);
    await toLanternPayment(page);
    await fillBilling(page);
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'There was an error with taking you to Stripe. Please try again.' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Pay £/ })).toBeEnabled();
  });
});

test.describe('with the sandbox processor', () => {
  test('the card goes to the sandbox card page and nothing of Stripe is loaded', async ({ page }) => {
    const loads = watchStripeLoads(page);
    await toLanternPayment(page);
    await fillBilling(page);
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Pay £\d+\.\d\d by card$/ })).toBeVisible();
    expect(loads.map((r) => r.url())).toEqual([]);
  });
});
