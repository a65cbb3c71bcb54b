/**
 * The registry of the checkout's steps: one module per step of the spec (`./<step>/step.ts`), in
 * the spec's order. The screen for a step (`StepScreen`), its title, the charts the root chart
 * invokes (`src/app/stepCharts.ts`) and the diagrams in statecharts.md all come from this list.
 * A new step touches three existing files: its row here, its state and routing row in the root
 * chart (`machines/checkout/checkout.machine.ts`), and its entry in the contract's step index
 * (`contract/steps.ts`: its row in the step table, with its place, when it applies, its chart's name and its flags);
 * a step with a chart of its own also names the chart's type in the root's stand-ins
 * (`StepChartsByName`, `machines/checkout/checkout.setup.ts`). Its title and words go in the
 * message catalogue (`contract/messages/locales/`).
 */
import type { Step } from '../../contract/steps';
import type { StepChart, StepModule } from './stepModule';
import { determining } from './determining/step';
import { basket } from './basket/step';
import { captcha } from './captcha/step';
import { reserve } from './reserve/step';
import { login } from './login/step';
import { marketingPreferences } from './marketingPreferences/step';
import { donation } from './donation/step';
import { giftAid } from './giftAid/step';
import { deliveryAddress } from './deliveryAddress/step';
import { ticketQuestionsAfter, ticketQuestionsBefore } from './ticketQuestions/step';
import { payment } from './payment/step';
import { deliverTickets } from './deliverTickets/step';
import { awaitingTruelayer } from './awaitingTruelayer/step';
import { afterSaleMessages } from './afterSaleMessages/step';
import { waiver } from './waiver/step';
import { orderCompleted } from './orderCompleted/step';
import { t } from '../../i18n/runtime.ts';

/** Every step, by its name in the spec. */
export const STEP_MODULES: { [S in Step]: StepModule<S> } = {
  determining,
  basket,
  captcha,
  reserve,
  login,
  marketing_preferences: marketingPreferences,
  donation,
  gift_aid: giftAid,
  delivery_address: deliveryAddress,
  ticket_questions_before: ticketQuestionsBefore,
  payment,
  deliver_tickets: deliverTickets,
  awaiting_truelayer: awaitingTruelayer,
  ticket_questions_after: ticketQuestionsAfter,
  after_sale_messages: afterSaleMessages,
  waiver,
  order_completed: orderCompleted,
};

export function stepModuleOf<S extends Step>(step: S): StepModule<S> {
  return STEP_MODULES[step];
}

/** A step's heading. */
export function stepTitle(step: Step): string {
  return t(`step.${step}`);
}

/** The charts the steps own, each once (two steps may share one), by the name the root invokes them by. */
export function stepCharts(): StepChart[] {
  const byName = new Map<string, StepChart>();
  for (const module of Object.values(STEP_MODULES) as StepModule[]) {
    if (module.chart && !byName.has(module.chart.name)) byName.set(module.chart.name, module.chart);
  }
  return [...byName.values()];
}
