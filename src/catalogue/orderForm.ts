/**
 * The event page's order form (server/routes/pages/catalogue.ts), made livelier once this script
 * runs: − and + step between 0 and the line's minimum..maximum range, a typed quantity outside it
 * says why (the basket's own wording in the page's language, carried by the form's and the input's
 * data attributes) and stops the form,
 * and lines left at 0 are not sent. Without the script the form posts as it is, and the server
 * checks the same rules.
 */
import { orderFormNote, stepQuantity, quantityProblem } from './quantityRules';

function limitsOf(input: HTMLInputElement): { min: number; max: number } {
  return { min: Number(input.dataset.min) || 1, max: Number(input.max) };
}

function typedQuantity(input: HTMLInputElement): number {
  return input.value.trim() === '' ? 0 : Number(input.value);
}

/** Shows the line's problem (if any) under it and sets the input's validity; true when there is none. */
function check(input: HTMLInputElement): boolean {
  const limits = limitsOf(input);
  const quantity = typedQuantity(input);
  const notAQuantity = input.form?.dataset.notAQuantity ?? '';
  const problem = quantityProblem(quantity, limits, {
    tooFew: input.dataset.tooFew ?? '',
    tooMany: input.dataset.tooMany ?? '',
    notAQuantity,
  });
  input.setCustomValidity(problem);
  const note = document.getElementById(input.getAttribute('aria-describedby') ?? '');
  if (note) note.textContent = problem;
  const [fewer, more] = input.parentElement?.querySelectorAll<HTMLButtonElement>('.stepper__button') ?? [];
  if (fewer) fewer.disabled = !(quantity > 0);
  if (more) more.disabled = quantity >= limits.max;
  return problem === '';
}

export function enhanceOrderForm(form: HTMLFormElement): void {
  for (const box of form.querySelectorAll<HTMLElement>('.stepper')) {
    const input = box.querySelector<HTMLInputElement>('input');
    if (!input) continue;
    for (const button of box.querySelectorAll<HTMLButtonElement>('.stepper__button')) {
      button.hidden = false;
      button.addEventListener('click', () => {
        input.value = String(stepQuantity(Number(input.value), button.dataset.step === '1' ? 1 : -1, limitsOf(input)));
        check(input);
      });
    }
    input.addEventListener('input', () => check(input));
    check(input);
  }
  form.addEventListener('submit', (event) => {
    const inputs = [...form.querySelectorAll<HTMLInputElement>('.stepper__input')];
    const invalid = inputs.filter((input) => !check(input));
    const anyChosen = inputs.some((input) => Number(input.value) > 0);
    const note = document.getElementById('add-note');
    if (note) note.textContent = orderFormNote(invalid.length === 0, anyChosen, form.dataset.nothingChosen ?? '');
    if (invalid.length > 0 || !anyChosen) {
      event.preventDefault();
      (invalid[0] ?? inputs[0])?.focus();
      return;
    }
    // Lines left at 0 are not sent.
    for (const line of form.querySelectorAll<HTMLFieldSetElement>('fieldset[data-line]')) {
      const input = line.querySelector<HTMLInputElement>('.stepper__input');
      if (!(Number(input?.value) > 0)) line.disabled = true;
    }
  });
}

const form = document.getElementById('add');
if (form instanceof HTMLFormElement) enhanceOrderForm(form);
