import { expect, test } from './support.ts';
import { addFromEventPage, expectStep, keepScreenshot, reserveButton, urls } from './support.ts';

/**
 * More time on the clock (WCAG 2.2.1 Timing Adjustable), on the server whose holds last 8 seconds:
 * 'More time' is offered at half such a short hold (a minute before the end of a normal one).
 */
test('a buyer asks for more time twice, sees the new time each time, and is refused the third time', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  await addFromEventPage(page, 'Castleton Trail Run', { tickets: { '10K entry': 1 } }, urls.expiry);
  await reserveButton(page).click();
  await expectStep(page, 'login');
  const clock = page.getByTestId('countdown-clock');
  const moreTime = page.getByRole('button', { name: 'More time' });
  const spoken = page.locator('.countdown [aria-live="polite"]');
  await expect(clock).toHaveText(/^0:0[5-8]$/);
  await expect(moreTime).toHaveCount(0);

  for (let round = 1; round <= 2; round++) {
    await expect(moreTime).toBeVisible({ timeout: 12_000 });
    await expect(spoken).toHaveText('Your tickets are held for less than a minute. Choose More time to keep them longer.');
    await expect(clock).toHaveText(/^0:0[1-4]$/);
    if (round === 1) await keepScreenshot(page, testInfo, 'more-time-offered');
    await moreTime.click();
    // The same hold, eight seconds further on; the offer goes until the end is near again.
    await expect(clock).toHaveText(/^0:1[0-2]$/);
    await expect(moreTime).toHaveCount(0);
    // Focus stays in the countdown rather than falling back to the page.
    expect(await page.evaluate(() => document.activeElement?.classList.contains('countdown') ?? false)).toBe(true);
  }

  await expect(moreTime).toBeVisible({ timeout: 12_000 });
  await moreTime.click();
  await expect(page.getByTestId('countdown-refusal')).toHaveText('No more time can be added to this reservation.');
  await expect(spoken).toHaveText('No more time can be added to this reservation.');
  await expect(moreTime).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'more-time-refused');
  await expectStep(page, 'basket');
  await expect(
    page.getByText('Your checkout time expired. If the tickets are still available, you can try to reserve them again.'),
  ).toBeVisible({ timeout: 15_000 });
});
