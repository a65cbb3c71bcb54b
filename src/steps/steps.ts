/**
 * The registry of the checkout's steps: one module per step of the step table (`./<step>/step.ts`),
 * in the table's order. The screen for a step (`StepScreen`), the charts the root chart invokes
 * (`src/app/stepCharts.ts`) and the diagrams in statecharts.md all come from this list; a screen
 * finds its title, countdown and 'Edit basket' through `StepLayout`, from its step alone.
 *
 * A new step whose chart finishing completes it touches four existing files: its row in the step
 * table (`contract/steps.ts`: its place, when it applies, its chart's name and its flags; the root
 * chart makes its state and routing row from it), its row here, and its title and words in the two
 * message catalogues (`contract/messages/locales/`). Its chart is a new `machines/<chart>/` folder,
 * whose machine file names its type for the root's stand-in (`StepChartsByName`,
 * `machines/checkout/checkout.setup.ts`, by declaration merging), and its module and screen a new
 * `src/steps/<step>/` folder. A step with more to it (other outcomes, input, Continue) is written
 * out in the root chart (`machines/checkout/checkout.machine.ts`).
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

/** The charts the steps own, each once (two steps may share one), by the name the root invokes them by. */
export function stepCharts(): StepChart[] {
  const byName = new Map<string, StepChart>();
  for (const module of Object.values(STEP_MODULES) as StepModule[]) {
    if (module.chart && !byName.has(module.chart.name)) byName.set(module.chart.name, module.chart);
  }
  return [...byName.values()];
}
