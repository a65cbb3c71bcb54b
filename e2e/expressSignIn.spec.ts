/**
 * Express checkout with the e-mail of an existing account, through the real app and server: the
 * payment step says the address has an account and asks for the code it emails there; the code
 * (read from the development mailbox) signs the buyer in, and the step carries on as theirs.
 */
import { expectNoAxeViolations, expectTargetSizes } from './a11y.ts';
import { addFromEventPage, codeFromMailbox, expect, expectStep, newAccount, reserveButton, test } from './support.ts';

const EXISTING_ACCOUNT =
  'There is already an account with this email address. To buy with it, sign in with the one-time code we email to it.';

test('express details with an existing account’s e-mail ask for its code, which signs the buyer in to pay as that account', async ({
  page,
  context,
}) => {
  // An account of this test's own: its mailbox holds only this test's codes.
  const email = await newAccount('Esme Express');
  await addFromEventPage(page, 'Docklands Street Food Weekend', { tickets: { 'Day pass': 1 } });
  await reserveButton(page).click();
  await expectStep(page, 'payment');
  await expect(page.getByRole('heading', { level: 1, name: 'Complete purchase' })).toBeVisible();

  await page.getByLabel('Full name').fill('Esme Express');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: /^Pay €/ }).click();
  await expect(page.getByText(EXISTING_ACCOUNT)).toBeVisible();
  await expect(page.getByText(`Code sent to ${email}`)).toBeVisible();

  // Another e-mail instead goes back to the details as typed; asking again sends a new code.
  await page.getByRole('button', { name: 'Use another email' }).click();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByRole('button', { name: /^Pay €/ }).click();
  await expect(page.getByText(`Code sent to ${email}`)).toBeVisible();

  const verify = page.getByRole('button', { name: 'Verify' });
  await expect(verify).toBeDisabled();
  await expectNoAxeViolations(page, 'the code sign-in on the payment step');
  await page.setViewportSize({ width: 360, height: 740 });
  await expectTargetSizes(page, 'the code sign-in on the payment step at 360 px');
  await page.setViewportSize({ width: 1280, height: 800 });
  const code = await codeFromMailbox(context, email);
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel('One-time code').fill(wrong);
  await verify.click();
  await expect(page.getByRole('alert').filter({ hasText: /code/i })).toBeVisible();
  await expect(page.getByLabel('One-time code')).toHaveValue('');

  await page.getByLabel('One-time code').fill(code);
  await verify.click();
  // Signed in: the step is the account's own payment step, with the billing address.
  await expect(page.getByRole('heading', { level: 1, name: 'Payment' })).toBeVisible();
  await expect(page.getByLabel('Postcode or zip code')).toBeVisible();
  await expect(page.getByLabel('Full name')).toBeHidden();

  await page.getByLabel('First name').fill('Tom');
  await page.getByLabel('Last name').fill('Okafor');
  await page.getByLabel('Address line 1').fill('4 Mill Lane');
  await page.getByLabel('Town or city').fill('Cirencester');
  await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
  await page.getByRole('button', { name: /^Pay €/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/card\//);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay €/ }).click();
  await expectStep(page, 'deliver_tickets');
});
