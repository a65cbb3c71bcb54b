import {
  expect,
  request,
  test as base,
  type APIRequestContext,
  type BrowserContext,
  type Locator,
  type Page,
  type TestInfo,
} from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DELIVERY_ADVANCE_DELAY_MS, DELIVERY_START_DELAY_MS } from '../contract/delivery.ts';
import { STEPS, type Step } from '../contract/steps.ts';
import { servers } from './servers.ts';

export { expect };

const CSP_VIOLATION = 'holdfast:csp-violation ';

/**
 * Every test runs under the server's Content-Security-Policy and fails when the page reports a
 * violation (`securitypolicyviolation`), so a new inline script, style or foreign source is
 * caught where it is added.
 */
export const test = base.extend<{ noCspViolations: void }>({
  noCspViolations: [
    async ({ page }, use) => {
      const violations: string[] = [];
      page.on('console', (message) => {
        const text = message.text();
        if (text.startsWith(CSP_VIOLATION)) violations.push(text.slice(CSP_VIOLATION.length));
      });
      await page.addInitScript((prefix) => {
        document.addEventListener('securitypolicyviolation', (e) => {
          console.warn(
            `${prefix}${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || location.pathname}:${e.lineNumber}`,
          );
        });
      }, CSP_VIOLATION);
      await use();
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export const urls = {
  main: `http://127.0.0.1:${servers.main}`,
  captcha: `http://127.0.0.1:${servers.captcha}`,
  clock: `http://127.0.0.1:${servers.clock}`,
  stripe: `http://127.0.0.1:${servers.stripe}`,
};

/** A request's origin; a blob: URL's is that of the page that made it (https://url.spec.whatwg.org/#concept-url-origin). */
export function originOf(url: string): string {
  return new URL(url.startsWith('blob:') ? url.slice('blob:'.length) : url).origin;
}

export interface Wanted {
  /** Ticket type name on the event page → quantity. */
  tickets?: Record<string, number>;
  /** Gift voucher name on the event page → quantity (at its first value). */
  vouchers?: Record<string, number>;
}

/**
 * Adds tickets the way a buyer does: from the catalogue, through the event page's form. Each line's
 * quantity is found by its ticket's name and the form's button by what it is, so the page may be in
 * any language.
 */
export async function addFromEventPage(page: Page, eventTitle: string, wanted: Wanted, base = ''): Promise<void> {
  await page.goto(`${base}/all-events/`);
  await page.getByRole('link', { name: eventTitle }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: eventTitle })).toBeVisible();
  const quantityOf = (name: string) =>
    page
      .locator('li.offer')
      .filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) })
      .getByRole('spinbutton');
  for (const [name, qty] of Object.entries({ ...wanted.tickets, ...wanted.vouchers }))
    await quantityOf(name).fill(String(qty));
  await page.locator('form#add button[type="submit"]').click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  await basketInUse(page);
}

/**
 * The page paints the basket before its script runs, inert until the app has drawn it again; a
 * buyer uses it from then on (a control focused before then would not be the app's).
 */
export async function basketInUse(page: Page): Promise<void> {
  await expect(basketStep(page)).toBeVisible();
  await expect(basketStep(page)).not.toHaveAttribute('inert', '');
}

/**
 * Stops the page's clock (installed with `page.clock.install()` before the page was opened) a
 * second ahead of where it is, so the page's timers fire only when the test runs the clock on.
 */
export async function pauseClock(page: Page): Promise<void> {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
}

/**
 * The app loads its HTTP client with its first call, in zero-delay tasks that a paused clock would
 * hold back; the basket is read again once (as when the tab becomes visible), so the client is in
 * place before the test stops the clock.
 */
export async function clientLoaded(page: Page): Promise<void> {
  const read = page.waitForResponse((r) => r.url().includes('/ajax/checkout/checkout/get/'));
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await read;
}

export function basketStep(page: Page) {
  return page.locator('[data-step="basket"]');
}

export async function expectStep(page: Page, step: string): Promise<void> {
  await expect(page.locator(`[data-step="${step}"]`)).toBeVisible();
}

/** One line of the basket, found by the ticket or voucher name it shows. */
export function basketLine(page: Page, name: string) {
  return basketStep(page)
    .getByRole('list', { name: 'Items in your basket' })
    .getByRole('listitem')
    .filter({ hasText: name });
}

export function reserveButton(page: Page) {
  return page.getByRole('button', { name: /Reserve Basket/ });
}

/** The steps that can follow delivery (spec 001 §4 Next-step rules). */
const AFTER_DELIVERY = ['ticket_questions_after', 'waiver', 'after_sale_messages', 'order_completed'];

/**
 * Through the delivery step without waiting out its pauses: it starts 1 s after entry and moves on
 * 3 s after both stages are done (spec 001 §9), and here both run on the page's clock, which the
 * test installed with `page.clock.install()` before the page was opened. Returns once the step has
 * been left; if the page's clock was not installed, the pauses simply pass in real time.
 */
export async function throughDelivery(page: Page): Promise<void> {
  const step = page.locator('[data-step="deliver_tickets"]');
  const left = page.locator(AFTER_DELIVERY.map((s) => `[data-step="${s}"]`).join(', '));
  // The stages show once the step's chart runs, and with it the timer of its first pause.
  await expect(step.locator('.delivery__stage').first().or(left).first()).toBeVisible();
  await page.clock.fastForward(DELIVERY_START_DELAY_MS);
  await expect(step.getByText('Your tickets are delivered. Taking you on…').or(left).first()).toBeVisible();
  await page.clock.fastForward(DELIVERY_ADVANCE_DELAY_MS);
  await expect(step).toHaveCount(0);
}

/**
 * A demo buyer (Tom Okafor unless named), signed in on the demo sign-in page, with `wanted` of an
 * event reserved and taken through sign-in and Keep updated, on `step`: the payment step unless the
 * basket asks for more first.
 */
export async function demoBuyerAt(
  page: Page,
  eventTitle: string,
  wanted: Wanted,
  step = 'payment',
  buyer = 'Tom Okafor',
): Promise<void> {
  await page.goto('/signin/');
  await page.getByRole('button', { name: `Continue as ${buyer}` }).click();
  await reservedThroughSignIn(page, eventTitle, wanted, step);
}

/**
 * As demoBuyerAt, for a buyer of this test's own: a new account, signed in on this page's browser.
 * Nothing another test does (its orders, saved cards, mail) reaches it. Its e-mail.
 */
export async function newBuyerAt(
  page: Page,
  eventTitle: string,
  wanted: Wanted,
  step = 'payment',
  fullname = 'Nia Newbuyer',
): Promise<string> {
  const email = await signInAsNewBuyer(page, fullname);
  await reservedThroughSignIn(page, eventTitle, wanted, step);
  return email;
}

/** This page's browser signed in as a new account of the test's own, registered on the sign-in page. Its e-mail. */
export async function signInAsNewBuyer(page: Page, fullname = 'Nia Newbuyer'): Promise<string> {
  return register(page.request, fullname);
}

async function reservedThroughSignIn(page: Page, eventTitle: string, wanted: Wanted, step: string): Promise<void> {
  await addFromEventPage(page, eventTitle, wanted);
  await reserveButton(page).click();
  await expectStep(page, 'login');
  await advanceTo(page, step as Step);
}

export interface AdvanceOptions {
  /** Who signs in on the sign-in step when the browser is signed out: the address gets the mailed code, a new one the name too. */
  buyer?: { email: string; fullName: string };
  /** A step past `step` is as good as `step` (a free basket passes the payment step by itself). */
  orLater?: boolean;
}

type Passer = (page: Page, step: Step, options: AdvanceOptions) => Promise<void>;

/** The step shown, once one is drawn and the app has taken it over (a painted basket is inert until then). */
async function shownStep(page: Page): Promise<Step> {
  const shown = page.locator('[data-step]:not([inert])').first();
  await expect(shown).toBeVisible();
  return (await shown.getAttribute('data-step')) as Step;
}

async function left(page: Page, step: Step): Promise<void> {
  await expect(page.locator(`[data-step="${step}"]`)).toHaveCount(0, { timeout: 15_000 });
}

function within(page: Page, step: Step) {
  return page.locator(`[data-step="${step}"]`);
}

/** Any step but `step`: the one that follows it, once drawn. */
function elsewhere(page: Page, step: Step) {
  return page.locator(`[data-step]:not([data-step="${step}"])`);
}

/**
 * A button that moves the step on, pressed, and the step left; a button already busy (pressed by
 * the test just before) is waited for, not pressed again.
 */
async function pressToLeave(page: Page, step: Step, button: Locator): Promise<void> {
  await expect(button.or(elsewhere(page, step)).first()).toBeVisible();
  const pressed = await button.evaluateAll(
    (found) => found.length === 0 || found.some((b) => b.getAttribute('aria-busy') === 'true'),
  );
  if (!pressed) await button.click();
  await left(page, step);
}

/** The step's own Continue, pressed, and the step left. */
const pressContinue: Passer = (page, step) =>
  pressToLeave(page, step, within(page, step).getByRole('button', { name: 'Continue', exact: true }).last());

/** A step that moves on by itself (the checkout finding its place, the reservation, a free payment). */
const movesOnItsOwn: Passer = (page, step) => left(page, step);

/** A step a test takes itself: there is no one simplest way through it. */
const noWay =
  (why: string): Passer =>
  async (_page, step) => {
    throw new Error(`advanceTo does not pass the ${step} step: ${why}`);
  };

/**
 * Signed in, the step asks only to confirm the account; signed out, `options.buyer` signs in with
 * the mailed code (and names a new account).
 */
const signIn: Passer = async (page, step, { buyer }) => {
  const form = within(page, step);
  const email = form.getByLabel('Email address');
  const name = form.getByLabel('Full name');
  const signedIn = form.getByRole('button', { name: 'Not you? Sign out' });
  const needBuyer = () => {
    if (!buyer) throw new Error('advanceTo reached the sign-in step signed out: give it options.buyer to sign in with');
    return buyer;
  };
  const next = elsewhere(page, step);
  await expect(email.or(name).or(signedIn).or(next).first()).toBeVisible();
  if (await email.isVisible()) {
    const { email: address } = needBuyer();
    await email.fill(address);
    await form.getByRole('button', { name: 'Continue' }).click();
    await form.getByLabel('One-time code').fill(await codeFromMailbox(page.request, address));
    await form.getByRole('button', { name: 'Verify' }).click();
    await expect(name.or(next).first()).toBeVisible();
  }
  if (await name.isVisible()) {
    await name.fill(needBuyer().fullName);
    await form.getByRole('button', { name: 'Continue' }).click();
  } else if (await signedIn.isVisible()) return pressContinue(page, step, {});
  await left(page, step);
};

/**
 * Each page of questions (a ticket's, then the order's), its required answers given: a text, the
 * first choice of a list, a box ticked; then Continue, until the step is left.
 */
const answerQuestions: Passer = async (page, step) => {
  const form = within(page, step).locator('form');
  const current = form.locator('[aria-current="step"]');
  for (let pageOfQuestions = 0; ; pageOfQuestions++) {
    if (pageOfQuestions > 50) throw new Error(`advanceTo could not answer the questions of ${step}`);
    await expect(form.or(elsewhere(page, step)).first()).toBeVisible();
    if (!(await form.isVisible())) return left(page, step);
    // The form may go as the last page's answers are saved: each wait is short, and the loop looks again.
    const shown = await current.textContent({ timeout: 5_000 }).catch(() => null);
    if (shown === null) continue;
    // The page's fields are drawn anew as it settles: answered again until none is left unanswered.
    await expect(async () => {
      const required = form.locator('[aria-required="true"]');
      for (const field of await required.all()) {
        if (!(await field.isVisible())) continue;
        const kind = await field.evaluate(
          (e) => (e instanceof HTMLInputElement ? e.type : e.tagName.toLowerCase()),
          undefined,
          { timeout: 1_000 },
        );
        if (kind === 'checkbox') await field.check({ timeout: 1_000 });
        else if (kind === 'select') {
          if ((await field.inputValue({ timeout: 1_000 })) === '')
            await field.selectOption({ index: 1 }, { timeout: 1_000 });
        } else if ((await field.inputValue({ timeout: 1_000 })) === '')
          await field.fill('Ada Lovelace', { timeout: 1_000 });
      }
    }).toPass();
    const pressed = await form
      .getByRole('button', { name: 'Continue' })
      .click({ timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (!pressed) continue;
    await expect(async () => {
      const gone = !(await form.isVisible());
      expect(gone || (await current.textContent({ timeout: 1_000 })) !== shown).toBe(true);
    }).toPass();
  }
};

/** A saved address when the buyer has one (it comes chosen), else one typed in by hand. */
const chooseAddress: Passer = async (page, step) => {
  const form = within(page, step);
  const saved = form.getByRole('radio', { name: /^(?!Use a new address$)/ });
  const finder = form.getByLabel('Find your address');
  await expect(saved.first().or(finder).first()).toBeVisible();
  if ((await saved.count()) > 0) await saved.first().check();
  else {
    await form.getByRole('button', { name: 'Enter the address manually' }).click();
    await form.getByLabel('First name').fill('Ada');
    await form.getByLabel('Last name').fill('Lovelace');
    await form.getByLabel('Address line 1').fill('4 Mill Lane');
    await form.getByLabel('Town or city').fill('Cirencester');
    await form.getByLabel('Postcode or ZIP code').fill('GL7 1AB');
  }
  await form.getByRole('button', { name: 'Continue' }).click();
  await left(page, step);
};

/** A free basket is claimed by itself; else a card that the test provider approves, with a billing address where none is filled in. */
const payByCard: Passer = async (page, step) => {
  const pay = page.getByRole('button', { name: /^Pay £/ });
  await expect(pay.or(elsewhere(page, step)).first()).toBeVisible();
  if ((await within(page, step).count()) === 0) return;
  if ((await page.getByLabel('Postcode or zip code').inputValue()) === '') await fillBillingAddress(page);
  await pay.click();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await pay.click();
  await left(page, step);
};

/**
 * How advanceTo passes the steps of the table (contract/steps.ts) that are not left with their own
 * Continue, each the simplest valid way. A step with no row here is passed with its Continue
 * (`pressContinue`: Gift Aid, Keep updated, the waiver, the organisers' messages, and a new step
 * that is left that way); a step left any other way needs its row.
 */
const PASSERS: Partial<Record<Step, Passer>> = {
  determining: movesOnItsOwn,
  basket: (page, step) => pressToLeave(page, step, reserveButton(page)),
  reserve: movesOnItsOwn,
  captcha: noWay('the test answers the challenge it sets up'),
  donation: (page, step) => pressToLeave(page, step, within(page, step).getByRole('button', { name: 'Skip donation' })),
  login: signIn,
  delivery_address: chooseAddress,
  ticket_questions_before: answerQuestions,
  payment: payByCard,
  awaiting_truelayer: noWay('the bank is answered by the test'),
  deliver_tickets: (page) => throughDelivery(page),
  ticket_questions_after: answerQuestions,
  order_completed: noWay('it is the last step'),
};

/**
 * From the checkout step shown, each step passed the simplest valid way (see PASSERS) until `step`
 * shows: signed in, Continue; Keep updated as it is; the required answers to questions given; a
 * saved or typed-in address; a donation skipped; the tickets delivered; the waiver and messages
 * read. Fails naming the step when it comes to one it has no way through, or goes past `step`.
 */
export async function advanceTo(page: Page, step: Step, options: AdvanceOptions = {}): Promise<void> {
  for (let passed = 0; passed <= STEPS.length; passed++) {
    const shown = await shownStep(page);
    if (shown === step || (options.orLater && STEPS.indexOf(shown) > STEPS.indexOf(step))) return;
    const passer = PASSERS[shown] ?? pressContinue;
    if (STEPS.indexOf(shown) > STEPS.indexOf(step))
      throw new Error(`advanceTo(${step}) is on ${shown}, which comes after it`);
    await passer(page, shown, options);
  }
  await expectStep(page, step);
}

/**
 * Screens are photographed for people to look at (the README's pictures in docs/screenshots, the
 * run's artefacts in test-results), never for a test to compare: only when asked, with
 * `npm run screenshots` (SCREENSHOTS=1). A photograph asserts nothing, so a run without them passes
 * or fails the same, in a third less time.
 */
const PHOTOGRAPHS = process.env.SCREENSHOTS === '1';

/** Photographs the page into `path` when photographs are asked for. */
export async function photograph(page: Page, path: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!PHOTOGRAPHS) return;
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, ...options });
}

/**
 * The whole page at a phone's width and then at a desktop's, photographed into `dir` when asked for
 * (by default the test's own output); the page is left at the desktop's width either way.
 */
export async function photographBothWidths(page: Page, testInfo: TestInfo, name: string, dir?: string): Promise<void> {
  for (const [label, width] of [
    ['phone', 360],
    ['desktop', 1280],
  ] as const) {
    if (!PHOTOGRAPHS && label === 'phone') continue;
    const size = { width, height: width === 360 ? 740 : 800 };
    const now = page.viewportSize();
    if (now?.width !== size.width || now.height !== size.height) await page.setViewportSize(size);
    await photograph(page, dir ? join(dir, `${label}-${name}.png`) : testInfo.outputPath(`${name}-${label}.png`), {
      fullPage: true,
    });
  }
}

/**
 * The run's pictures, one per project and page: the whole page at desktop width, and on the phone
 * what the screen shows (fixed controls stay where a buyer sees them).
 */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await photograph(page, join('test-results', 'screenshots', `${testInfo.project.name}-${name}.png`), {
    fullPage: testInfo.project.name !== 'phone',
  });
}

/**
 * Holds every call to one path of the API at the network until the test lets it through, so the
 * test can look at the screen while the server is working, for as long as the test needs and however
 * loaded the machine is. `arrived()` resolves when the first call is held; `release()` lets it,
 * and every later call, through.
 */
export async function holdCalls(
  page: Page,
  path: string,
): Promise<{ arrived: () => Promise<void>; release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrive!: () => void;
  const first = new Promise<void>((resolve) => (arrive = resolve));
  await page.route(`**${path}`, async (route) => {
    arrive();
    await gate;
    await route.continue();
  });
  return { arrived: () => first, release };
}

/**
 * The one-time code in the newest message to `email`, read from the development mailbox's page
 * (/dev/mailbox) as a person would read it there; the page is fetched, not drawn. As a person
 * would, it waits a little for the message to arrive (the page may ask for the code a moment after
 * the test asks the mailbox).
 */
export async function codeFromMailbox(browser: BrowserContext | APIRequestContext, email: string): Promise<string> {
  const request = 'request' in browser ? browser.request : browser;
  for (let attempt = 0; attempt < 50; attempt++) {
    const page = await request.get(`/dev/mailbox?to=${encodeURIComponent(email)}`);
    const body = /<pre class="mail__body">([\s\S]*?)<\/pre>/.exec(await page.text())?.[1];
    const code = /code is (\d{6})/.exec(body ?? '')?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code in the mailbox for ${email}`);
}

/** An e-mail address no other test uses. */
export function freshEmail(name: string): string {
  return `${name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/**
 * A new account of this test's own, made as a buyer makes one on the sign-in page (an address, the
 * mailed code, a name) from a browser of its own, so the test's page stays signed out. Its e-mail.
 */
export async function newAccount(fullname: string, baseURL = urls.main): Promise<string> {
  const browser = await request.newContext({ baseURL });
  try {
    return await register(browser, fullname);
  } finally {
    await browser.dispose();
  }
}

/** Registers a new address on the sign-in page from `browser`, which is then signed in as it. Its e-mail. */
async function register(browser: APIRequestContext, fullname: string): Promise<string> {
  const email = freshEmail(fullname.toLowerCase().replace(/\W+/g, '.'));
  const form = async (path: string, fields: Record<string, string>) => {
    const answer = await browser.post(path, { form: fields, maxRedirects: 0 });
    expect(answer.status(), `${path} answered ${answer.status()}: ${await answer.text()}`).toBeLessThan(400);
  };
  await form('/signin/', { email });
  await form('/signin/code/', { email, code: await codeFromMailbox(browser, email) });
  await form('/signin/name/', { email, fullname });
  return email;
}

/** Makes one call of the API fail as a broken network or server would. */
export async function failCall(page: Page, path: string, how: 'abort' | 500 = 500): Promise<void> {
  await page.route(`**${path}`, (route) =>
    how === 'abort'
      ? route.abort('failed')
      : route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Server unavailable"}' }),
  );
}

/**
 * Serves the checkout page without the data it normally carries (as a server that could not read
 * the sale sends it), so the app reads the checkout and the user with its calls, which a test may
 * then hold up, fail or change.
 */
export async function withoutPageData(page: Page): Promise<void> {
  await page.route(/\/checkout\/(\?.*)?$/, async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const body = (await response.text()).replace(
      /<script id="holdfast-initial-data" type="application\/json">.*?<\/script>/s,
      '',
    );
    await route.fulfill({ response, body });
  });
}

/**
 * One adult ticket on the Ashcombe Lantern Trail: its questions answered as a buyer does (the
 * holder's name and lantern, then the order's promise on the Basket step), which sends them.
 */
export async function answerLanternQuestions(page: Page): Promise<void> {
  const form = page.locator('[data-step="ticket_questions_before"] form');
  await form.getByLabel('Name of the person using this ticket').fill('Tom Okafor');
  await form.getByLabel('Which lantern would you like to carry?').selectOption('Fox');
  await form.getByRole('button', { name: 'Continue' }).click();
  await form.getByLabel('We will keep to the lit paths and follow the rangers’ directions').check();
  await form.getByRole('button', { name: 'Continue' }).click();
}

/** The billing address of the payment specs' buyer, Tom Okafor of Cirencester, typed into the payment step. */
export async function fillBillingAddress(page: Page): Promise<void> {
  await page.getByLabel('First name').fill('Tom');
  await page.getByLabel('Last name').fill('Okafor');
  await page.getByLabel('Address line 1').fill('4 Mill Lane');
  await page.getByLabel('Town or city').fill('Cirencester');
  await page.getByLabel('Postcode or zip code').fill('GL7 1AB');
}
