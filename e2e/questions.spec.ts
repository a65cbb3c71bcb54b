/**
 * Ticket questions before payment (spec 001 §2 Ticket Questions, §4 Questions, §5, §7, §8), in the
 * real app against the real server: the Ashcombe Lantern Trail asks per-ticket questions of each
 * ticket and once-per-checkout questions on the Basket step, with its organiser's intro.
 */
import type { Page } from '@playwright/test';
import {
  advanceTo,
  addFromEventPage,
  expect,
  expectStep,
  failCall,
  photograph,
  reserveButton,
  signInAsNewBuyer,
  test,
} from './support.ts';

const SAVE_PATH = '/ajax/checkout/checkout/save_question_answers/';
const NAME = 'Name of the person using this ticket';
const LANTERN = 'Which lantern would you like to carry?';
const STEP_FREE = 'This person needs step-free paths';
const HEARD = 'How did you hear about the Lantern Trail?';
const PATHS = 'We will keep to the lit paths and follow the rangers’ directions';
const ENTER = 'Please enter your answer';

/** Signed in as a new buyer, one adult and one child ticket held, through Keep updated to the questions. */
async function reachQuestions(page: Page) {
  await signInAsNewBuyer(page);
  await addFromEventPage(page, 'Ashcombe Winter Lantern Trail', {
    tickets: { 'Adult (5pm entry)': 1, 'Child (5pm entry)': 1 },
  });
  await reserveButton(page).click();
  await advanceTo(page, 'ticket_questions_before');
  await expect(pill(page, 'Ticket 1')).toBeVisible();
}

const form = (page: Page) => page.locator('[data-step="ticket_questions_before"] form');
const pill = (page: Page, label: string) =>
  form(page)
    .getByRole('navigation', { name: 'Question steps' })
    .getByRole('button', { name: new RegExp(`^${label}`) });
const continueButton = (page: Page) => form(page).getByRole('button', { name: 'Continue' });

/** Ticket 1 (adult): name, lantern, step-free; Ticket 2 (child): name. */
async function answerTickets(page: Page) {
  await form(page).getByLabel(NAME).fill('Ada Lovelace');
  await form(page).getByLabel(LANTERN).selectOption('Fox');
  await form(page).getByLabel(STEP_FREE).check();
  await continueButton(page).click();
  await expect(
    form(page).getByRole('heading', { name: 'Ashcombe Winter Lantern Trail: Child (5pm entry)' }),
  ).toBeVisible();
  await form(page).getByLabel(NAME).fill('Annabella Lovelace');
  await continueButton(page).click();
}

async function answerBasket(page: Page) {
  await expect(form(page).getByRole('heading', { name: 'Your whole order' })).toBeVisible();
  await form(page).getByLabel(HEARD).selectOption('Social media');
  await form(page).getByLabel(PATHS).check();
}

test('a buyer answers text, checkbox and dropdown questions on each ticket and the Basket step, then goes on to payment', async ({
  page,
}) => {
  const saved: unknown[] = [];
  await page.route(`**${SAVE_PATH}`, async (route) => {
    saved.push({ type: route.request().headers()['content-type'], body: route.request().postDataJSON() });
    await route.continue();
  });
  await reachQuestions(page);
  await expect(form(page).getByRole('navigation', { name: 'Question steps' }).getByRole('button')).toHaveText([
    /Ticket 1/,
    /Ticket 2/,
    /Basket/,
  ]);
  await expect(
    form(page).getByRole('heading', { name: 'Ashcombe Winter Lantern Trail: Adult (5pm entry)' }),
  ).toBeVisible();
  // Mandatory questions are marked with an asterisk; the optional box is not.
  await expect(form(page).locator('label', { hasText: NAME })).toContainText('*');
  await expect(form(page).locator('label', { hasText: STEP_FREE })).not.toContainText('*');

  // Continue without the mandatory answers: each is pointed out, and the step stays.
  await continueButton(page).click();
  await expect(form(page).getByText(ENTER)).toHaveCount(2);
  await expect(form(page).getByLabel(NAME)).toHaveAttribute('aria-invalid', 'true');
  await form(page).getByLabel(NAME).fill('Ada Lovelace');
  await expect(form(page).getByText(ENTER)).toHaveCount(1);
  await form(page).getByLabel(LANTERN).selectOption('Fox');
  await expect(form(page).getByText(ENTER)).toHaveCount(0);
  await form(page).getByLabel(STEP_FREE).check();
  await continueButton(page).click();
  await expect(pill(page, 'Ticket 1')).toContainText('(completed)');

  await expect(
    form(page).getByRole('heading', { name: 'Ashcombe Winter Lantern Trail: Child (5pm entry)' }),
  ).toBeVisible();
  await expect(form(page).getByLabel(LANTERN)).toHaveCount(0);
  await form(page).getByLabel(NAME).fill('Annabella Lovelace');
  await continueButton(page).click();

  // The Basket step: the organiser's own intro, and the questions asked once per checkout.
  await expect(form(page).getByText(/^Ashcombe’s rangers look after every group on the trail/)).toBeVisible();
  await answerBasket(page);
  await continueButton(page).click();
  await expectStep(page, 'payment');

  expect(saved).toHaveLength(1);
  const { type, body } = saved[0] as {
    type: string;
    body: { before_or_after: string; answers: Array<{ answer: unknown; copy: unknown }> };
  };
  expect(type).toContain('application/json');
  expect(body.before_or_after).toBe('before');
  expect(body.answers.map((a) => a.answer)).toEqual(
    expect.arrayContaining(['Ada Lovelace', 'Annabella Lovelace', 'Fox', true, 'Social media']),
  );
});

test('the counter warns at 10 characters or fewer left, and stops at 300', async ({ page }) => {
  await reachQuestions(page);
  const name = form(page).getByLabel(NAME);
  const counter = form(page).getByTestId('answer-counter');
  await expect(counter).toHaveText('300 characters remaining');
  await name.fill('a'.repeat(289));
  await expect(counter).toHaveText('11 characters remaining');
  await expect(counter).not.toHaveClass(/questions__counter--warning/);
  await name.fill('a'.repeat(290));
  await expect(counter).toHaveText('10 characters remaining');
  await expect(counter).toHaveClass(/questions__counter--warning/);
  await name.fill('a'.repeat(299));
  await expect(counter).toHaveText('1 character remaining');
  await name.fill('b'.repeat(320));
  await expect(name).toHaveValue('b'.repeat(300));
  await expect(counter).toHaveText('0 characters remaining');
});

test('submit is blocked until every step is completed: the first step that is not is shown', async ({ page }) => {
  const saves: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith(SAVE_PATH)) saves.push(request.url());
  });
  await reachQuestions(page);
  // Straight to the Basket step by its pill, skipping both tickets.
  await pill(page, 'Basket').click();
  await answerBasket(page);
  await expect(form(page).getByText('Complete every step to send your answers.')).toBeVisible();
  await continueButton(page).click();
  await expect(
    form(page).getByRole('heading', { name: 'Ashcombe Winter Lantern Trail: Adult (5pm entry)' }),
  ).toBeVisible();
  await expect(form(page).getByText(ENTER)).toHaveCount(2);
  await expect(pill(page, 'Basket')).toContainText('(completed)');
  await expect(pill(page, 'Ticket 2')).toContainText('(not completed)');
  expect(saves).toEqual([]);

  await form(page).getByLabel(NAME).fill('Ada Lovelace');
  await form(page).getByLabel(LANTERN).selectOption('Paper star');
  await pill(page, 'Basket').click();
  await continueButton(page).click();
  // Ticket 2 was never visited: it is shown now.
  await expect(
    form(page).getByRole('heading', { name: 'Ashcombe Winter Lantern Trail: Child (5pm entry)' }),
  ).toBeVisible();
  expect(saves).toEqual([]);
  await form(page).getByLabel(NAME).fill('Annabella Lovelace');
  await continueButton(page).click();
  await continueButton(page).click();
  await expectStep(page, 'payment');
  expect(saves).toHaveLength(1);
});

test('a failed save shows the spec’s text, a refusal the server’s own words; the answers stay for another try', async ({
  page,
}) => {
  await reachQuestions(page);
  await answerTickets(page);
  await answerBasket(page);

  await failCall(page, SAVE_PATH);
  await continueButton(page).click();
  await expect(form(page).getByRole('alert')).toHaveText('Unable to save your answers. Please try again');
  await expectStep(page, 'ticket_questions_before');
  await page.unroute(`**${SAVE_PATH}`);

  // The real server refuses a body whose mandatory lantern answer went missing on the way.
  await page.route(`**${SAVE_PATH}`, async (route) => {
    const body = route.request().postDataJSON() as { answers: Array<{ answer: unknown }> };
    const answers = body.answers.filter((a) => a.answer !== 'Fox');
    await route.continue({ postData: JSON.stringify({ ...body, answers }) });
  });
  await continueButton(page).click();
  await expect(form(page).getByRole('alert')).toHaveText(
    "Please enter your answer to 'Which lantern would you like to carry?'",
  );
  await page.unroute(`**${SAVE_PATH}`);

  await expect(form(page).getByLabel(PATHS)).toBeChecked();
  await continueButton(page).click();
  await expectStep(page, 'payment');
});

test('the questions step on a phone and on a desktop', async ({ page }) => {
  await reachQuestions(page);
  await form(page).getByLabel(NAME).fill('Ada Lovelace');
  await continueButton(page).click();
  await expect(form(page).getByText(ENTER)).toBeVisible();
  await page.setViewportSize({ width: 360, height: 740 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await photograph(page, 'docs/screenshots/phone-ticket-questions.png');
  await page.setViewportSize({ width: 1280, height: 800 });
  await photograph(page, 'docs/screenshots/desktop-ticket-questions.png', { fullPage: true });
});
