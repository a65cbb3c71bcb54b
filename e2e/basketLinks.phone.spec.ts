/** The links on a basket line are thumb-sized on a phone (WCAG 2.5.8: 44 px tall here). */
import { addFromEventPage, basketLine, expect, test } from './support.ts';
import { MIN_TARGET } from './a11y.ts';

test('a gift voucher line’s organiser link is thumb-sized', async ({ page }) => {
  await addFromEventPage(page, 'Lantern Comedy Gala Night', { vouchers: { 'Lantern Comedy gift card': 1 } });
  const link = basketLine(page, 'Lantern Comedy gift card').getByRole('link', { name: 'The Lantern Comedy Club' });
  const box = await link.boundingBox();
  expect(box).not.toBeNull();
  expect(Math.round(box!.height)).toBeGreaterThanOrEqual(MIN_TARGET);
});
