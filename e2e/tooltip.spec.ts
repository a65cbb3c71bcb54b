/**
 * Tooltips (spec 000 §9, generic interface pieces; ui/Tooltip.tsx) in the basket: the note on
 * booking fees in the order summary and on a non-refundable ticket. Each is the button's accessible
 * description; it shows on hover (the note itself can be hovered), on keyboard focus and on a tap,
 * and goes with Escape, a second tap or a tap elsewhere, staying inside a phone's screen.
 */
import type { Page } from '@playwright/test';
import { sourceText } from '../i18n/catalogues.ts';

const BOOKING_FEE_NOTE = sourceText('summary.bookingFeeNote');
const NON_REFUNDABLE_NOTE = sourceText('basket.nonRefundableNote');
import { addFromEventPage, basketLine, basketStep, expect, photographBothWidths, test } from './support.ts';

const EVENT = 'Castleton Trail Run';
const WANTED = { tickets: { '10K entry': 1, 'Parking permit': 1 } };

const bookingFeeButton = (page: Page) => basketStep(page).getByRole('button', { name: 'About booking fees' });
const note = (page: Page, text: string) => page.getByRole('tooltip').filter({ hasText: text });

test('the booking-fee note is the button’s description, and shows on focus and hover until Escape or the pointer leaves', async ({
  page,
}, testInfo) => {
  await addFromEventPage(page, EVENT, WANTED);
  const button = bookingFeeButton(page);
  await expect(button).toHaveAccessibleDescription(BOOKING_FEE_NOTE);
  await expect(note(page, BOOKING_FEE_NOTE)).toBeHidden();

  // Keyboard: focus shows it, Escape hides it, Enter shows it again, leaving the button hides it.
  await button.focus();
  await expect(note(page, BOOKING_FEE_NOTE)).toBeVisible();
  await photographBothWidths(page, testInfo, 'tooltip');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('Escape');
  await expect(note(page, BOOKING_FEE_NOTE)).toBeHidden();
  await page.keyboard.press('Enter');
  await expect(note(page, BOOKING_FEE_NOTE)).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(note(page, BOOKING_FEE_NOTE)).toBeHidden();

  // Mouse: resting on the button shows it; the pointer can move onto the note; leaving hides it.
  await button.hover();
  await expect(note(page, BOOKING_FEE_NOTE)).toBeVisible();
  await note(page, BOOKING_FEE_NOTE).hover();
  await expect(note(page, BOOKING_FEE_NOTE)).toBeVisible();
  await page.mouse.move(5, 5);
  await expect(note(page, BOOKING_FEE_NOTE)).toBeHidden();
  // Escape hides it under a resting pointer too.
  await button.hover();
  await expect(note(page, BOOKING_FEE_NOTE)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(note(page, BOOKING_FEE_NOTE)).toBeHidden();
});

test('on a touch screen a tap opens a note and a second tap, or a tap elsewhere, closes it; it stays on a 360 px screen', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, hasTouch: true, viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await addFromEventPage(page, EVENT, WANTED);
  const parking = basketLine(page, 'Parking permit');
  const button = parking.getByRole('button', { name: 'About non-refundable tickets' });
  await expect(button).toHaveAccessibleDescription(NON_REFUNDABLE_NOTE);

  await button.tap();
  await expect(note(page, NON_REFUNDABLE_NOTE)).toBeVisible();
  await button.tap();
  await expect(note(page, NON_REFUNDABLE_NOTE)).toBeHidden();

  await button.tap();
  await expect(note(page, NON_REFUNDABLE_NOTE)).toBeVisible();
  const box = (await note(page, NON_REFUNDABLE_NOTE).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  await page.getByRole('heading', { level: 1, name: 'Basket' }).tap();
  await expect(note(page, NON_REFUNDABLE_NOTE)).toBeHidden();
  await context.close();
});
