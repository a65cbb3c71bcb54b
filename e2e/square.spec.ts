/**
 * Paying through Square with no keys: Harbour Street Theatre's provider is Square, so Square is
 * chosen; get_square_credentials, then the sandbox's card form, then pay-with-square; a declined
 * card shows Square's final message; each error text from a failing call.
 */
import type { Page } from '@playwright/test';
import { expect, expectStep, failCall, photographBothWidths, test, throughDelivery, newBuyerAt } from './support.ts';

async function toSquarePayment(page: Page) {
  await newBuyerAt(page, 'The Tempest on the Barbican', { tickets: { Stalls: 2 } });
  await page.getByLabel('First name').fill('Tom');
  await page.getByLabel('Last name').fill('Okafor');
  await page.getByLabel('Address line 1').fill('4 Mill Lane');
  await page.getByLabel('Town or city').fill('Cirencester');
  await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
}

async function cardForm(page: Page, number: string) {
  const form = page.getByTestId('square-card');
  await expect(form).toBeVisible();
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  return form;
}

const payButton = (page: Page) => page.getByRole('button', { name: /^Pay £/ });

test('Square is chosen for a Square organiser and takes the card through its sandbox; a declined card shows Square’s message', async ({
  page,
}, testInfo) => {
  await page.clock.install();
  await toSquarePayment(page);
  await expect(page.getByRole('radio', { name: 'Credit or Debit Card' })).toBeChecked();
  // Square's SDK is not fetched without keys: the sandbox's card form takes the card.
  const squareCdn: string[] = [];
  page.on('request', (r) => r.url().includes('squarecdn') && squareCdn.push(r.url()));
  await payButton(page).click();
  let form = await cardForm(page, '4000 0000 0000 0002');
  await photographBothWidths(page, testInfo, 'square-card');
  await form.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  await expectStep(page, 'payment');

  await payButton(page).click();
  form = await cardForm(page, '4242 4242 4242 4241');
  await form.getByRole('button', { name: /^Pay £/ }).click();
  // The card form's own refusal keeps the form.
  await expect(form.getByRole('alert').filter({ hasText: 'Your card number is incorrect.' })).toBeVisible();
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: /^Pay £/ }).click();
  await throughDelivery(page);
  await expectStep(page, 'order_completed');
  await expect(page.getByText('Order complete! Your tickets are on their way.')).toBeVisible();
  expect(squareCdn).toEqual([]);
  await page.goto('/account/wallet/');
  await expect(page.getByText('The Tempest on the Barbican').first()).toBeVisible();
});

test('Square’s errors: no credentials, the address error, and the final message of a failed call', async ({ page }) => {
  await toSquarePayment(page);
  await failCall(page, '/ajax/checkout/checkout/get_square_credentials/');
  await payButton(page).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unable to get Square credentials. Please try again later' }),
  ).toBeVisible();
  await page.unroute('**/ajax/checkout/checkout/get_square_credentials/');

  const ADDRESS_ERROR = 'We were unable to find your address. Please try a different address';
  await page.route('**/ajax/checkout/checkout/pay-with-square/', (route) =>
    route.fulfill({
      status: 422,
      contentType: 'application/json',
      body: JSON.stringify({ error: ADDRESS_ERROR, response: { success: false, addressError: ADDRESS_ERROR } }),
    }),
  );
  await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
  await payButton(page).click();
  let form = await cardForm(page, '4242 4242 4242 4242');
  await form.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: ADDRESS_ERROR })).toBeVisible();
  await page.unroute('**/ajax/checkout/checkout/pay-with-square/');

  await failCall(page, '/ajax/checkout/checkout/pay-with-square/');
  await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
  await payButton(page).click();
  form = await cardForm(page, '4242 4242 4242 4242');
  await form.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Unable to pay. Please try again later' })).toBeVisible();
});

/**
 * Square's library in the page, when keyed: a small stand-in for Square's Web Payments library
 * (window.Square.payments → card → attach/tokenize), served where the spec loads it from.
 */
const SQUARE_LIBRARY_STAND_IN = `window.Square = { payments() { return { async card() { let input = null; return {
  async attach(selector) { input = document.createElement('input'); input.setAttribute('aria-label', 'Square card number'); document.querySelector(selector).append(input); },
  async tokenize() { const digits = input.value.replace(/\\s/g, ''); return digits.length >= 12 ? { status: 'OK', token: 'cnon:' + digits } : { status: 'Invalid', errors: [{ message: 'Card number is not valid' }] }; },
  async destroy() { input && input.remove(); return true; } }; } }; } };`;

test('with keys, Square’s library is loaded once from the spec’s path and its card is tokenised for pay-with-square', async ({
  page,
}) => {
  await toSquarePayment(page);
  await page.route('**/ajax/checkout/checkout/get_square_credentials/', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        app_id: 'sandbox-sq0idb-e2e',
        location_id: 'L1',
        checkout_js: 'https://sandbox.web.squarecdn.com/v1/square.js',
      }),
    }),
  );
  const libraryLoads: string[] = [];
  await page.route('**/ajax/checkout/checkout/javascript-square/', (route) => {
    libraryLoads.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: SQUARE_LIBRARY_STAND_IN });
  });
  const sources: string[] = [];
  await page.route('**/ajax/checkout/checkout/pay-with-square/', (route) => {
    sources.push(new URLSearchParams(route.request().postData() ?? '').get('source_id') ?? '');
    return route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ response: { success: false, message: 'Square declined this card' } }),
    });
  });

  await payButton(page).click();
  const form = page.getByTestId('square-card');
  await form.getByLabel('Square card number').fill('123');
  await form.getByRole('button', { name: /^Pay £/ }).click();
  // The library's own refusal keeps its form.
  await expect(form.getByRole('alert').filter({ hasText: 'Card number is not valid' })).toBeVisible();
  await form.getByLabel('Square card number').fill('4111 1111 1111 1111');
  await form.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Square declined this card' })).toBeVisible();
  expect(sources).toEqual(['cnon:4111111111111111']);

  // A second attempt reuses the library already in the page.
  await payButton(page).click();
  await page.getByTestId('square-card').getByLabel('Square card number').fill('5555 5555 5555 4444');
  await page
    .getByTestId('square-card')
    .getByRole('button', { name: /^Pay £/ })
    .click();
  await expect.poll(() => sources).toEqual(['cnon:4111111111111111', 'cnon:5555555555554444']);
  expect(libraryLoads).toHaveLength(1);
});
