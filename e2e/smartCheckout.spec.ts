/**
 * The smart-checkout link (`smartcheckout/?session={sale_reference}`) as a buyer uses it: the
 * continue-your-order e-mail, opened from the mailbox in a browser that has never seen the sale,
 * asks for the buyer's one-time code and then shows the same order at the same step; a guessed or
 * altered link is refused in words.
 */
import { basketLine, codeFromMailbox, expect, expectStep, newBuyerAt, test } from './support.ts';

const INVALID_LINK = 'This checkout link is not valid. Please use the link exactly as it was e-mailed to you.';

test('a buyer continues a held order in a fresh browser from the e-mailed link, after proving who they are', async ({
  page,
  browser,
}) => {
  test.slow();
  const email = await newBuyerAt(
    page,
    'Castleton Trail Run',
    { tickets: { '10K entry': 1 } },
    'payment',
    'Ravi Resume',
  );

  const laptop = await browser.newContext();
  try {
    const other = await laptop.newPage();
    await other.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`);
    const mail = other.locator('.mail').filter({ hasText: 'Continue your order HF-' });
    await expect(mail).toHaveCount(1);
    await mail.getByRole('link', { name: /\/smartcheckout\/\?session=HF-/ }).click();

    await expect(other.getByRole('heading', { name: 'Continue your order' })).toBeVisible();
    await expect(
      other.getByText('To continue this order on this device, sign in with the e-mail address the link was sent to.'),
    ).toBeVisible();
    await other.getByRole('link', { name: 'Sign in to continue' }).click();
    await other.getByLabel('Email address').fill(email);
    await other.getByRole('button', { name: 'Send code' }).click();
    await other.getByLabel('One-time code').fill(await codeFromMailbox(laptop, email));
    await other.getByRole('button', { name: 'Verify' }).click();

    await expect(other).toHaveURL(/\/checkout\/$/);
    await expectStep(other, 'payment');
    await expect(other.getByTestId('countdown-clock')).toBeVisible();
    await expect(basketLine(other, '10K entry').or(other.getByText('10K entry').first())).toBeVisible();
  } finally {
    await laptop.close();
  }
});

test('a guessed or altered checkout link is refused in words and shows nothing of any order', async ({
  page,
  browser,
}) => {
  const email = await newBuyerAt(
    page,
    'Castleton Trail Run',
    { tickets: { '10K entry': 1 } },
    'payment',
    'Tess Tamper',
  );
  const body = await (await page.request.get(`/dev/mailbox?to=${encodeURIComponent(email)}`)).text();
  const link = new URL(
    /(http:\/\/[^\s<"]+\/smartcheckout\/\?[^\s<"]+)/.exec(body)![1]!.replace(/&#38;/g, '&').replace(/&amp;/g, '&'),
  );
  const reference = link.searchParams.get('session')!;
  const signature = link.searchParams.get('signature')!;

  const stranger = await browser.newContext();
  try {
    const other = await stranger.newPage();
    const guessed = new URL(link);
    guessed.searchParams.set(
      'session',
      reference.endsWith('A') ? `${reference.slice(0, -1)}B` : `${reference.slice(0, -1)}A`,
    );
    const altered = new URL(link);
    altered.searchParams.set('signature', (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1));
    const bare = new URL(link);
    bare.search = `?session=${reference}`;
    for (const url of [guessed, altered, bare]) {
      const response = await other.goto(url.pathname + url.search);
      expect(response?.status(), url.search).toBe(404);
      await expect(other.getByRole('alert')).toHaveText(INVALID_LINK);
      await expect(other.getByText(reference)).toHaveCount(0);
    }
    // Nothing of the order reached this browser.
    await other.goto('/checkout/');
    await expect(other.getByText('Looking for something to put in your basket?')).toBeVisible();
  } finally {
    await stranger.close();
  }
});
