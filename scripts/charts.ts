/**
 * Generates statecharts.md from the machine definitions: per machine its purpose, a Mermaid
 * diagram and how to open it in the Stately visualiser. `--check` fails when the file is stale.
 */
import '../i18n/sourceLanguage.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { basketMachine } from '../machines/basket/basket.machine';
import { machineWideEvents, mermaidDiagram, stateDescriptions } from '../machines/charts';
import { checkoutMachine } from '../machines/checkout/checkout.machine';
import { countdownMachine } from '../machines/countdown/countdown.machine';
import { stepSaverMachine } from '../machines/stepSaver/stepSaver.machine';
import { transfersMachine } from '../machines/transfers/transfers.machine';
import { seatSelectionMachine } from '../machines/seatSelection/seatSelection.machine';
import { instalmentMachine } from '../machines/instalment/instalment.machine';
import { squareMachine } from '../machines/square/square.machine';
import { waitingRoomMachine } from '../machines/waitingRoom/waitingRoom.machine';
import { stepCharts } from '../src/steps/steps';
import { staleStatelyFiles, statelyFiles, writeStatelyFiles } from './stately';

interface Chart {
  machine: AnyStateMachine;
  file: string;
  /** How the machine sits in the app. */
  placement: string;
}

/** The charts that are not a step's own: the root, the basket's, the hold's and the step saver's, and the charts other charts invoke. */
const otherCharts: Chart[] = [
  {
    machine: checkoutMachine,
    file: 'machines/checkout/checkout.machine.ts',
    placement:
      'The root actor, created once by the app (`src/app/checkoutActors.ts` provides its actors). Next-step rules: `machines/checkout/nextStep.ts` over the contract\u2019s step table (`contract/steps.ts`), applied by the `routing` state. The steps\u2019 own charts follow, in the order of the steps (`src/steps/steps.ts`).',
  },
  {
    machine: basketMachine,
    file: 'machines/basket/basket.machine.ts',
    placement:
      'Invoked by the root on the `basket` step (systemId `basket`); reports failures to the root as `NOTICE_RAISED`.',
  },
  {
    machine: countdownMachine,
    file: 'machines/countdown/countdown.machine.ts',
    placement:
      'Spawned by the root with the first hold (a reservation made, or a sale resumed past it; action `startClock`), as `countdown`; sends `COUNTDOWN_EXPIRED` to the root.',
  },
  {
    machine: stepSaverMachine,
    file: 'machines/stepSaver/stepSaver.machine.ts',
    placement: 'Spawned by the root at start (systemId `stepSaver`); answers `STEP_SAVED` / `STEP_SAVE_FAILED`.',
  },
  {
    machine: transfersMachine,
    file: 'machines/transfers/transfers.machine.ts',
    placement:
      'Invoked by the order-completed chart in its `transfer_tickets` view (systemId `transfers`, input: the order\u2019s tickets that can be transferred, `transferableTickets`, and the UK date), with set_transfers from `src/steps/orderCompleted/orderCompletedActors.ts`; `canTransfer` and `transferTile` decide the tile. Sending ends the chart (tickets_sent, can_transfer_tickets false), and the order-completed chart marks the tickets transferred.',
  },
  {
    machine: seatSelectionMachine,
    file: 'machines/seatSelection/seatSelection.machine.ts',
    placement:
      'Runs the seat-selection page `/events/book_seats/{event_date_id}/` (its own chunk of the app, outside the checkout root) once the event date and its seating plan are loaded; adding the seats finishes it and the page goes to `/checkout/`.',
  },
  {
    machine: instalmentMachine,
    file: 'machines/instalment/instalment.machine.ts',
    placement:
      'Invoked by the payment chart in its `instalment` state once the buyer’s details are saved (input: the option, the contact number, the card and the default flag); with Stripe keyed, Stripe’s card form shows while it is `takingCard`; its output (paid, failed with the message, or holdLost) decides the payment chart’s next state. `src/steps/payment/planActors.ts` provides its actors.',
  },
  {
    machine: squareMachine,
    file: 'machines/square/square.machine.ts',
    placement:
      'Invoked by the payment chart in its `square` state once the buyer’s details are saved (input: the billing address); the card form shows while it is `takingCard`; its output (paid, failed with the message, or holdLost) decides the payment chart’s next state. `src/steps/payment/planActors.ts` provides its actors.',
  },
  {
    machine: waitingRoomMachine,
    file: 'machines/waitingRoom/waitingRoom.machine.ts',
    placement:
      'Runs the queue page `/queue/{event_date_id}/` of a queued on-sale (its own light script, outside the checkout root): joining with a proof of work, waiting, admitted, sold out and the waiting list.',
  },
];

function section({ machine, file, placement }: Chart): string {
  const lines = [`## ${machine.id}`, '', machine.root.description ?? '', '', `Source: \`${file}\`. ${placement}`, ''];
  lines.push('```mermaid', mermaidDiagram(machine), '```', '');
  const everywhere = machineWideEvents(machine);
  if (everywhere.length) {
    lines.push('Handled in every state:', '', ...everywhere.map((t) => `- \`${t}\``), '');
  }
  const described = stateDescriptions(machine);
  if (described.length) {
    lines.push(
      '| State | Purpose |',
      '| --- | --- |',
      ...described.map((s) => `| \`${s.path}\` | ${s.description} |`),
      '',
    );
  }
  return lines.join('\n');
}

/** Every chart: the root first, then each step's own chart (from the steps' registry), then the rest. */
export async function allCharts(): Promise<Chart[]> {
  const [root, basket, ...rest] = otherCharts;
  const steps = await Promise.all(
    stepCharts().map(async (chart) => ({
      machine: await chart.definition(),
      file: chart.file,
      placement: chart.placement,
    })),
  );
  return [root!, basket!, ...steps, ...rest];
}

export async function generate(): Promise<string> {
  const charts = await allCharts();
  return [
    '# Statecharts',
    '',
    '<!-- Generated by `npm run charts` from the machine definitions. Do not edit by hand. -->',
    '',
    'Every flow of the checkout is one of these machines (XState v5). Each diagram below is drawn from',
    'the machine definition itself: states nest as in the code, transitions show their event, guard',
    '(with its parameters) and actions; `done X` / `error X` are the completion of the actor `X`,',
    '`after X` is the named delay `X`, `H*` returns to the step the buyer was on.',
    '',
    '## Opening a machine in the Stately visualiser',
    '',
    '- Live: in development or demo mode (`npm run dev`, `npm start`) open a page with `?inspect` in the address',
    '  (for example `http://localhost:5173/checkout/?inspect`). `@statelyai/inspect` attaches and',
    '  shows every running machine, its current state and each event as it happens.',
    '- From the repository: `statecharts/<machine>.stately.ts` is each machine as `createMachine(<config>)`,',
    "  and `statecharts/all.stately.ts` the root with every child. In Stately, 'Import from code' and paste",
    '  the file: it opens as it is. `npm run charts` writes them, `npm run charts:check` (in `npm test`)',
    '  fails when one is stale.',
    '- From the running app in demo mode: `/dev/statecharts/` lists the same files to copy, and the',
    "  checkout's 'Copy for Stately' button (shown with `?inspect`) copies the root with every child.",
    '',
    '## A step and its chart',
    '',
    'Each step of the step table is one state of the root: it remembers and saves the step, invokes the',
    'step\u2019s own chart (if it has one) with a `systemId`, and, once the chart finishes (or the buyer',
    'presses Continue), reads the checkout afresh in `advancing`. The fresh checkout goes to `routing`,',
    'the one state that lists every step once and picks the next with `nextStep`. A step whose chart',
    'finishing completes it is made from its row (`stepState` in `checkout.machine.ts`), the others are',
    'written out; both appear in full below and in the Stately files:',
    '',
    '```ts',
    'payment: {',
    "  tags: ['basketEditable'],                       // the screen offers 'Edit basket'",
    "  entry: [{ type: 'rememberStep', params: { step: 'payment' } }, { type: 'saveStep', params: { step: 'payment' } }],",
    "  initial: 'active',",
    '  states: {',
    '    active: {',
    "      invoke: { src: 'payment', id: 'payment', systemId: 'payment', onDone: [/* reservation lost */, { target: 'advancing' }] },",
    '    },',
    "    advancing: { tags: ['advancing'], invoke: { src: 'loadCheckout', onDone: { target: '#checkout.routing', actions: 'keepCheckout' } } },",
    '  },',
    '},',
    'routing: {',
    '  always: [',
    "    { guard: { type: 'nextStepIs', params: { step: 'login' } }, target: '#checkout.pastBasket.login' },",
    '    // ... one row per step',
    '  ],',
    '},',
    '```',
    '',
    'The child knows nothing of the step order: it ends in a final state whose output says what happened.',
    '`nextStep` reads the flow from the contract\u2019s step table (`contract/steps.ts`): the steps in the order a',
    'buyer meets them and when each applies, the next step being the first later one that applies, plus',
    'the spec\u2019s few exceptions (an express buyer without a charity goes from the reservation to payment).',
    'A step\u2019s chart is named in the root by its name, from the same table (`STEP_CHARTS`, through',
    '`providedByApp.charts`), and typed as the chart (`StepChartsByName` in',
    '`machines/checkout/checkout.setup.ts`), so the root reads its output typed; the app provides it from',
    'the step\u2019s own chunk, listed in the step\u2019s module',
    '(`src/steps/<step>/step.ts`). Its screen finds it as the view\u2019s `stepChild`. The child\u2019s own walk',
    'checks its outputs; the root walk checks, with an oracle written from the spec, where each output leads.',
    '',
    'A new step whose chart finishing completes it touches four existing files: its row in the step table',
    '`contract/steps.ts` (its state and `routing` row in the root follow from it), its row in the registry',
    '`src/steps/steps.ts`, and the two message catalogues (`contract/messages/locales/`) for its title and',
    'words. Its chart and screen are new files (`machines/<chart>/`, `src/steps/<step>/`); the chart\u2019s',
    'file gives the root its type by declaration merging (`StepChartsByName` in `checkout.setup.ts`).',
    '',
    'Calls end in one outcome type (`contract/outcome.ts`): a chart\u2019s `onError` guards ask whether',
    'the call was `refused`, found the hold lost (`holdLost`) or `failed`, never an error class or an',
    'HTTP status; the app\u2019s call layer (`src/api/outcome.ts`) makes the outcome. Outcomes, a call\u2019s',
    'and a chart\u2019s output alike, are told apart by `kind`; events by `type`.',
    '',
    ...charts.map(section),
  ].join('\n');
}

const target = fileURLToPath(new URL('../statecharts.md', import.meta.url));
const statelyFolder = fileURLToPath(new URL('../statecharts/', import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await generate();
  if (process.argv.includes('--check')) {
    let current: string;
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      current = '';
    }
    const stale = staleStatelyFiles(statelyFolder, statelyFiles((await allCharts()).map((c) => c.machine)));
    if (current !== text || stale.length) {
      console.error(
        `${[current !== text ? 'statecharts.md' : '', ...stale.map((name) => `statecharts/${name}`)].filter(Boolean).join(', ')} ` +
          'out of date with the machines: run `npm run charts` and commit the result.',
      );
      process.exit(1);
    }
    console.log('statecharts.md and statecharts/*.stately.ts are up to date.');
  } else {
    writeFileSync(target, text);
    writeStatelyFiles(statelyFolder, statelyFiles((await allCharts()).map((c) => c.machine)));
    console.log(`Wrote ${target} and ${statelyFolder}*.stately.ts`);
  }
}
