import AxeBuilder from '@axe-core/playwright';
import type { AxeResults } from 'axe-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Accessibility checks any page can use: an axe scan, tap target sizes and keyboard focus.
 * Each fails with a list a person can act on: what, where, and by how much.
 */

/** Every rule axe runs by default (WCAG 2.0 to 2.2 A and AA, its best practices and more); only violations are reported. */
const AXE_OPTIONS = { resultTypes: ['violations'] as ['violations'] };

/** Scans the page as it is now with axe (every rule it runs by default: WCAG 2.2 A and AA, best practices and more). */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  await settled(page);
  const results = await axeResults(page);
  const lines = results.violations.flatMap((v) => [
    `${v.id} (${v.impact ?? 'unknown'}): ${v.help} — ${v.helpUrl}`,
    ...v.nodes.map((n) => `    ${n.target.join(' ')}\n      ${n.failureSummary?.replace(/\n/g, '\n      ') ?? ''}`),
  ]);
  expect(
    lines,
    `axe found ${results.violations.length} kind(s) of violation on ${label}:\n${lines.join('\n')}`,
  ).toEqual([]);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's results for the page as it is now. A page of one document is scanned where it stands, axe loaded
 * into it once however often it is scanned; a page with frames goes through AxeBuilder, which scans
 * every frame, other origins' included, and puts their results together in a page of its own.
 */
async function axeResults(page: Page): Promise<AxeResults> {
  if (page.frames().length > 1) return new AxeBuilder({ page }).options(AXE_OPTIONS).analyze();
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.evaluate(
      `${AXE_SOURCE};axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } });`,
    );
  }
  return page.evaluate(
    (options) =>
      (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(
        document,
        options,
      ),
    AXE_OPTIONS,
  );
}

/**
 * A checkout page first shows the server's inert picture of the basket; the app then draws the same
 * screen over it. Pages are checked as the buyer uses them, once that has happened.
 */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('[inert]')).toHaveCount(0);
  // A button's colour changing (enabled, busy) is measured once it has changed, not half-way.
  await animationsFinished(page);
}

/**
 * Entrance animations (toasts, a dialog) have finished, so colours are measured as shown; endless
 * ones (a spinner) are left running.
 */
export async function animationsFinished(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** The two widths a page is checked at: a 360 × 740 phone and a 1280 × 800 desktop. */
export const PHONE_VIEWPORT = { width: 360, height: 740 };
export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };

/**
 * The page as it is now, at the phone's width (axe, and every target thumb-sized) and then at the
 * desktop's (axe). The state is reached once: the app draws the same document at every width and
 * only its stylesheet changes, so the two scans see what a buyer at each width sees.
 */
export async function expectAccessibleAtBothWidths(page: Page, label: string, targetsOnDesktop = false): Promise<void> {
  await page.setViewportSize(PHONE_VIEWPORT);
  await animationsFinished(page);
  await expectNoAxeViolations(page, `${label} (phone)`);
  await expectTargetSizes(page, `${label} at 360 px`);
  await page.setViewportSize(DESKTOP_VIEWPORT);
  await animationsFinished(page);
  await expectNoAxeViolations(page, `${label} (desktop)`);
  if (targetsOnDesktop) await expectTargetSizes(page, `${label} at 1280 px`);
  await page.setViewportSize(PHONE_VIEWPORT);
}

/** The size we aim at: WCAG 2.5.5 (AAA), stricter than 2.5.8's 24. */
export const MIN_TARGET = 44;

export interface TargetOffender {
  name: string;
  tag: string;
  width: number;
  height: number;
  why: string;
}

/**
 * Every visible button, link, input, select, summary and [role=button|radio|checkbox] (shadow
 * roots included) that is smaller than 44 × 44 CSS px and not spaced to that: a 44 px circle centred
 * on it meets another target or another small target's circle. An input's label counts as part of
 * its target (a tap on the label works the input). Links inside a sentence are exempt, as WCAG says.
 */
export async function findSmallTargets(page: Page, min = MIN_TARGET): Promise<TargetOffender[]> {
  return page.evaluate((min) => {
    const SELECTOR =
      'button, a[href], input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="radio"], [role="checkbox"]';
    const all: Element[] = [];
    const collect = (root: Document | ShadowRoot) => {
      all.push(...root.querySelectorAll(SELECTOR));
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) collect(el.shadowRoot);
    };
    collect(document);

    const textOf = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
    const nameOf = (el: Element): string => {
      const aria = el.getAttribute('aria-label');
      if (aria) return aria;
      const by = el.getAttribute('aria-labelledby');
      if (by)
        return by
          .split(/\s+/)
          .map((id) => textOf((el.getRootNode() as Document).getElementById?.(id) ?? null))
          .join(' ');
      const labels = (el as HTMLInputElement).labels;
      if (labels && labels.length > 0) return [...labels].map(textOf).join(' ');
      return textOf(el) || el.getAttribute('title') || (el as HTMLInputElement).value || el.tagName.toLowerCase();
    };
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) return false; // visually hidden (1 px, clipped) or not rendered
      if (r.bottom + scrollY <= 0 || r.right + scrollX <= 0) return false; // parked off-screen until focused
      return el.checkVisibility({ visibilityProperty: true });
    };
    /** A link in running text: inline, with words of its own sentence around it. */
    const inSentence = (el: Element) => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      let block = el.parentElement;
      while (block && getComputedStyle(block).display === 'inline') block = block.parentElement;
      if (!block) return false;
      const around = textOf(block).replace(textOf(el), ' ').trim();
      return around.split(/\s+/).filter((w) => /\w/.test(w)).length >= 4;
    };
    const rectOf = (el: Element) => {
      let r = el.getBoundingClientRect();
      let left = r.left,
        top = r.top,
        right = r.right,
        bottom = r.bottom;
      for (const label of (el as HTMLInputElement).labels ?? []) {
        if (!shown(label)) continue;
        r = label.getBoundingClientRect();
        left = Math.min(left, r.left);
        top = Math.min(top, r.top);
        right = Math.max(right, r.right);
        bottom = Math.max(bottom, r.bottom);
      }
      return { left, top, right, bottom, width: right - left, height: bottom - top };
    };

    // While a modal dialog is open, the page behind it is inert: only the dialog's targets count.
    const modal = document.querySelector('dialog:modal');
    /** Under another element (a notification over the header): not a target until uncovered. */
    const covered = (el: Element) => {
      const r = el.getBoundingClientRect();
      const x = (r.left + r.right) / 2,
        y = (r.top + r.bottom) / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
      const hit = (el.getRootNode() as Document | ShadowRoot).elementFromPoint(x, y);
      return (
        hit !== null && !el.contains(hit) && !hit.contains(el) && !(el as HTMLInputElement).labels?.[0]?.contains(hit)
      );
    };
    const targets = all
      .filter((el) => shown(el) && !inSentence(el) && (!modal || modal.contains(el)) && !covered(el))
      // An input inside its own label, or a control inside another target, is measured once.
      .filter((el) => !all.some((other) => other !== el && other.contains(el) && shown(other)))
      .map((el) => ({ el, rect: rectOf(el) }));
    // Half a pixel of slack for sub-pixel layout.
    const small = (t: (typeof targets)[number]) => t.rect.width < min - 0.5 || t.rect.height < min - 0.5;
    const radius = min / 2;
    const centre = (r: (typeof targets)[number]['rect']) => ({ x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 });

    const offenders = [];
    for (const t of targets) {
      if (!small(t)) continue;
      const c = centre(t.rect);
      const clash = targets.find((o) => {
        if (o === t || o.el.contains(t.el) || t.el.contains(o.el)) return false;
        if (small(o)) {
          const d = centre(o.rect);
          if (Math.hypot(c.x - d.x, c.y - d.y) < min - 0.5) return true;
        }
        const nx = Math.max(o.rect.left, Math.min(c.x, o.rect.right));
        const ny = Math.max(o.rect.top, Math.min(c.y, o.rect.bottom));
        return Math.hypot(c.x - nx, c.y - ny) < radius - 0.5;
      });
      if (clash) {
        offenders.push({
          name: nameOf(t.el),
          tag: t.el.tagName.toLowerCase(),
          width: Math.round(t.rect.width * 10) / 10,
          height: Math.round(t.rect.height * 10) / 10,
          why: `too close to ${clash.el.tagName.toLowerCase()} "${nameOf(clash.el)}"`,
        });
      }
    }
    return offenders;
  }, min);
}

/** Fails listing each target under 44 × 44 that is not spaced to that, by accessible name and size. */
export async function expectTargetSizes(page: Page, label = 'this page'): Promise<void> {
  await settled(page);
  const offenders = await findSmallTargets(page);
  const lines = offenders.map((o) => `${o.tag} "${o.name}" is ${o.width} × ${o.height} px, ${o.why}`);
  expect(lines, `targets under ${MIN_TARGET} × ${MIN_TARGET} px on ${label}:\n${lines.join('\n')}`).toEqual([]);
}

/** What has focus (through open shadow roots) and whether it shows a focus indicator. */
async function focusState(page: Page) {
  return page.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body || el === document.documentElement) {
      return { lost: true, description: el ? el.tagName.toLowerCase() : 'nothing', ring: false };
    }
    const visible = (e: Element) => {
      const s = getComputedStyle(e);
      const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
      return outline || (s.boxShadow !== 'none' && s.boxShadow !== '');
    };
    // A composite control (the quantity stepper) may draw the ring on its frame instead.
    let ring = visible(el);
    for (let p = el.parentElement, i = 0; !ring && p && i < 2; p = p.parentElement, i++)
      ring = visible(p) && p.matches(':has(:focus-visible)');
    const name = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 60);
    return { lost: false, description: `${el.tagName.toLowerCase()} "${name}"`, ring };
  });
}

/** Focus is on something (not the page body) and that something shows a focus ring. */
export async function expectFocusNotLost(page: Page): Promise<void> {
  const state = await focusState(page);
  expect(state.lost, `focus fell back to ${state.description}`).toBe(false);
  expect(state.ring, `${state.description} has focus but no visible focus indicator (outline or box-shadow)`).toBe(
    true,
  );
}

/** Focus is on this element, with a visible focus indicator. */
export async function expectFocusOn(page: Page, locator: Locator): Promise<void> {
  await expect(locator).toBeFocused();
  await expectFocusNotLost(page);
}
