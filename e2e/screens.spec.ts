import { expect, test } from './support.ts';
import { addFromEventPage, basketLine, expectStep, keepScreenshot, reserveButton, urls } from './support.ts';

/** The screens a buyer meets, at desktop and phone widths; the images are kept with the run. */
test('basket, captcha and the held basket look right at this width', async ({ page }, testInfo) => {
  await addFromEventPage(
    page,
    'Summer Jazz on the Quay',
    { tickets: { 'General admission': 2, 'Riverside table seat': 1 }, vouchers: { 'Riverside Arts gift voucher': 1 } },
    urls.captcha,
  );
  await expect(basketLine(page, 'Riverside table seat')).toBeVisible();
  await expect(page.getByTestId('summary-total')).toBeVisible();
  await keepScreenshot(page, testInfo, 'basket-filled');

  await reserveButton(page).click();
  await expectStep(page, 'captcha');
  await expect(page.getByText("I'm not a robot", { exact: true })).toBeVisible();
  await keepScreenshot(page, testInfo, 'captcha');

  await page.getByText("I'm not a robot", { exact: true }).click();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Continue' }).click();
  // Summer Jazz's organiser has a charity, so the donation step comes next.
  await expectStep(page, 'donation');
  await expect(page.getByTestId('countdown-clock').first()).toBeVisible();
  await keepScreenshot(page, testInfo, 'held');
});
