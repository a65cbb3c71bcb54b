/**
 * Generates statecharts.md from the machine definitions: per machine its purpose, a Mermaid
 * diagram and how to open it in the Stately visualiser. `--check` fails when the file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { basketMachine } from '../machines/basket/basket.machine';
import { machineWideEvents, mermaidDiagram, stateDescriptions } from '../machines/charts';
import { checkoutMachine } from '../machines/checkout/checkout.machine';
import { countdownMachine } from '../machines/countdown/countdown.machine';
import { reservationMachine } from '../machines/reservation/reservation.machine';
import { stepSaverMachine } from '../machines/stepSaver/stepSaver.machine';
import { donationMachine } from '../machines/donation/donation.machine';
import { giftAidMachine } from '../machines/donation/giftAid.machine';
import { addressMachine } from '../machines/address/address.machine';
import { accountMachine } from '../machines/account/account.machine';
import { marketingMachine } from '../machines/marketing/marketing.machine';
import { deliveryMachine } from '../machines/delivery/delivery.machine';
import { transfersMachine } from '../machines/transfers/transfers.machine';
import { bankTransferMachine } from '../machines/bankTransfer/bankTransfer.machine';
import { seatSelectionMachine } from '../machines/seatSelection/seatSelection.machine';
import { paymentMachine } from '../machines/payment/payment.machine';
import { instalmentMachine } from '../machines/instalment/instalment.machine';
import { squareMachine } from '../machines/square/square.machine';
import { questionsMachine } from '../machines/questions/questions.machine';
import { orderCompletedMachine } from '../machines/orderCompleted/orderCompleted.machine';

interface Chart {
  machine: AnyStateMachine;
  file: string;
  /** How the machine sits in the app. */
  placement: string;
}

const charts: Chart[] = [
  {
    machine: checkoutMachine,
    file: 'machines/checkout/checkout.machine.ts',
    placement:
      'The root actor, created once by the app (`src/app/checkoutActors.ts` provides its actors). Next-step rules: `machines/checkout/nextStep.ts`.',
  },
  {
    machine: basketMachine,
    file: 'machines/basket/basket.machine.ts',
    placement: "Invoked by the root on the `basket` step (systemId `basket`); reports failures to the root as `NOTICE_RAISED`.",
  },
  {
    machine: reservationMachine,
    file: 'machines/reservation/reservation.machine.ts',
    placement:
      'Invoked by the root on the `reserve` step and from `captcha.reserving` (systemId `reservation`); its output is the outcome the root acts on.',
  },
  {
    machine: countdownMachine,
    file: 'machines/countdown/countdown.machine.ts',
    placement: 'Spawned by the root at start (systemId `countdown`); sends `COUNTDOWN_EXPIRED` to the root.',
  },
  {
    machine: stepSaverMachine,
    file: 'machines/stepSaver/stepSaver.machine.ts',
    placement: 'Spawned by the root at start (systemId `stepSaver`); answers `STEP_SAVED` / `STEP_SAVE_FAILED`.',
  },
  {
    machine: donationMachine,
    file: 'machines/donation/donation.machine.ts',
    placement: 'Invoked by the root on the `donation` step (systemId `donation`); its output (donated or skipped) completes the step.',
  },
  {
    machine: giftAidMachine,
    file: 'machines/donation/giftAid.machine.ts',
    placement: 'Invoked by the root on the `gift_aid` step (systemId `giftAid`); finishing it completes the step.',
  },
  {
    machine: accountMachine,
    file: 'machines/account/account.machine.ts',
    placement:
      'Invoked by the root on the `login` step (systemId `account`); signed in, saved as a guest or confirmed completes the step, a `reserving` outcome returns to the basket.',
  },
  {
    machine: marketingMachine,
    file: 'machines/marketing/marketing.machine.ts',
    placement: 'Invoked by the root on the `marketing_preferences` step (systemId `marketing`); saving completes the step.',
  },
  {
    machine: deliveryMachine,
    file: 'machines/delivery/delivery.machine.ts',
    placement:
      'Invoked by the root on the `deliver_tickets` step (systemId `delivery`); finishing it completes the step, and the root follows `nextStep`.',
  },
  {
    machine: transfersMachine,
    file: 'machines/transfers/transfers.machine.ts',
    placement:
      'Runs the Transfer tickets form in the `transfer_tickets` sub-view of order completed (`src/steps/orderCompleted/transfer/TransferTickets.tsx`, its own chunk, provides set_transfers), with the order\u2019s tickets that can be transferred (`transferableTickets`; `canTransfer` and `transferTile` decide the tile). Sending ends the chart: tickets_sent, can_transfer_tickets false.',
  },
  {
    machine: seatSelectionMachine,
    file: 'machines/seatSelection/seatSelection.machine.ts',
    placement:
      'Runs the seat-selection page `/events/book_seats/{event_date_id}/` (its own chunk of the app, outside the checkout root) once the event date and its seating plan are loaded; adding the seats finishes it and the page goes to `/checkout/`.',
  },
  {
    machine: paymentMachine,
    file: 'machines/payment/payment.machine.ts',
    placement:
      'Invoked by the root on the `payment` step (systemId `payment`); paid or free tickets claimed completes the step (the fresh checkout shows `payment_complete` and the root moves on to `deliver_tickets`), a `reserving` outcome returns to the basket.',
  },
  {
    machine: bankTransferMachine,
    file: 'machines/bankTransfer/bankTransfer.machine.ts',
    placement:
      'Invoked by the root on the `awaiting_truelayer` step (systemId `bankTransfer`), where the bank returns the buyer; paid completes the step (on to `deliver_tickets`), `changeMethod` returns to `payment`, a `reserving` outcome (an error with no time left) returns to the basket. The poll interval is the server’s (`poll_interval_ms`, 1.5 s unless `TRUELAYER_POLL_INTERVAL_MS` says otherwise).',
  },
  {
    machine: instalmentMachine,
    file: 'machines/instalment/instalment.machine.ts',
    placement:
      'Invoked by the payment chart in its `instalment` state once the buyer’s details are saved (input: the option, the contact number, the card and the default flag); its output (paid, failed with the message, or reserving) decides the payment chart’s next state. `src/steps/payment/planActors.ts` provides its actors.',
  },
  {
    machine: squareMachine,
    file: 'machines/square/square.machine.ts',
    placement:
      'Invoked by the payment chart in its `square` state once the buyer’s details are saved (input: the billing address); the card form shows while it is `takingCard`; its output (paid, failed with the message, or reserving) decides the payment chart’s next state. `src/steps/payment/planActors.ts` provides its actors.',
  },
  {
    machine: addressMachine,
    file: 'machines/address/address.machine.ts',
    placement:
      'Invoked by the root on the `delivery_address` step (systemId `address`); the address sent with set_delivery_address completes the step. The payment step reuses it for the billing address (input `purpose: billing`).',
  },
  {
    machine: questionsMachine,
    file: 'machines/questions/questions.machine.ts',
    placement:
      'Invoked by the root on the `ticket_questions_before` and `ticket_questions_after` steps (systemId `questions`, input `beforeOrAfter`); saving the answers completes the step.',
  },
  {
    machine: orderCompletedMachine,
    file: 'machines/orderCompleted/orderCompleted.machine.ts',
    placement:
      'Runs the `order_completed` screen (its own chunk, created by the screen with `src/steps/orderCompleted/orderCompletedActors.ts`): the sub-views, the feedback and share dialogs, subscribing and the referral link. The root checkout stays on `order_completed` throughout.',
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
    lines.push('| State | Purpose |', '| --- | --- |', ...described.map((s) => `| \`${s.path}\` | ${s.description} |`), '');
  }
  return lines.join('\n');
}

export function generate(): string {
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
    '- Live: run `npm run dev` and open the checkout with `?inspect` in the address',
    '  (for example `http://localhost:5173/checkout/?inspect`). `@statelyai/inspect` attaches and',
    '  shows every running machine, its current state and each event as it happens.',
    "- Static: in development the page has a 'Copy for Stately' button that copies",
    '  `createMachine(<config>)` of the root machine (made by `machineConfigText` in `machines/charts.ts`).',
    '  Paste it into a new machine at https://stately.ai/viz. The child machines can be copied the same',
    '  way with `machineConfigText(basketMachine)` and so on.',
    '',
    '## A step that owns a child machine',
    '',
    'A step with a flow of its own (the reserve step today; the login step with its four modes next)',
    'is one state of the root that invokes the child with a `systemId`, so its screen finds the child',
    'through the view (`reservationRef`) and tests can reach it by `system.get(...)`. The child knows',
    'nothing of the step order: it ends in a final state whose output says what happened. The root',
    'turns that output into the next step with `nextStep`, one guarded `onDone` edge per step the rule',
    'can lead to, so the diagram shows every rule:',
    '',
    '```ts',
    'reserve: {',
    "  entry: stepEntry('reserve'),                      // remembers and saves the step",
    "  invoke: {",
    "    src: 'reservation', id: 'reservation', systemId: 'reservation',",
    "    onDone: [                                       // one edge per outcome and next step",
    "      ...AFTER_RESERVATION.map((to) => ({",
    "        guard: { type: 'reservedThenNext', params: fromDone({ from: 'reserve', to }, (outcome) => ({ outcome })) },",
    "        target: target(to),",
    "      })),",
    "      ...the other outcomes (captcha, redirect, error, unknown, failed),",
    "    ],",
    "    onError: { target: '#checkout.basket', actions: { type: 'notify', params: { ... } } },",
    "  },",
    "  on: { COPY_LINK_CLICKED: { actions: 'forwardToReservation' } },   // the screen's buttons go to the child",
    '},',
    '```',
    '',
    '`fromDone` gives guards and actions the output as typed params (no casts), and keeps the fixed',
    "part readable in the diagrams ('reservedThenNext reserve to login'). The child's own walk checks",
    'its outputs; the root walk checks, with an oracle written from the spec, where each output leads.',
    '',
    ...charts.map(section),
  ].join('\n');
}

const target = fileURLToPath(new URL('../statecharts.md', import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = generate();
  if (process.argv.includes('--check')) {
    let current: string;
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      current = '';
    }
    if (current !== text) {
      console.error('statecharts.md is out of date with the machines: run `npm run charts` and commit the result.');
      process.exit(1);
    }
    console.log('statecharts.md is up to date.');
  } else {
    writeFileSync(target, text);
    console.log(`Wrote ${target}`);
  }
}
