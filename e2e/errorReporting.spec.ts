/**
 * Error reporting (spec 000 §1, §7) without an error service keyed: an error in the app reaches the
 * server's log through its report call, with the signed-in user's id and e-mail.
 */
import { addFromEventPage, expect, signInAsNewBuyer, test } from './support.ts';

test('an error in the app is reported to the server with the signed-in user @anyWidth', async ({ page }) => {
  const email = await signInAsNewBuyer(page);
  await addFromEventPage(page, 'Summer Jazz on the Quay', { tickets: { 'General admission': 1 } });
  const { user } = (await (await page.request.get('/ajax/user/user/get_user/')).json()) as {
    user: { id: number; email: string };
  };
  expect(user.email).toBe(email);

  const reported = page.waitForRequest('**/ajax/telemetry/report_error/');
  const answered = page.waitForResponse('**/ajax/telemetry/report_error/');
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('The basket could not be drawn');
    });
  });
  const body = new URLSearchParams((await reported).postData() ?? '');
  expect(body.get('message')).toBe('Error: The basket could not be drawn');
  expect(body.get('page')).toBe('/checkout/');
  expect(body.get('user_id')).toBe(String(user.id));
  expect(body.get('email')).toBe(email);
  expect((await answered).status()).toBe(204);
});
