/**
 * Turns machine definitions into text: the config for the Stately visualiser and a Mermaid
 * `stateDiagram-v2` for statecharts.md. No Node imports, so the browser's dev-only
 * 'Copy for Stately' can use it too.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/**
 * The machine's config as a JavaScript object literal for `createMachine(...)`. Functions (input
 * mappers, computed params) cannot be pasted and are left out; the names of actions, guards,
 * actors and delays stay, which is what the visualiser shows.
 */
export function machineConfigText(machine: AnyStateMachine): string {
  return JSON.stringify(machine.config, (_key, value: unknown) => (typeof value === 'function' ? undefined : value), 2);
}

/** A Mermaid id for a state node: its path, which is unique (keys such as `active` repeat). */
function nodeId(node: AnyStateNode): string {
  return node.path.length ? node.path.join('__') : 'root';
}

function childrenOf(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states) as AnyStateNode[];
}

function paramsText(params: unknown): string {
  if (!params || typeof params !== 'object') return '';
  return Object.values(params as Record<string, unknown>)
    .map((value) => (typeof value === 'object' ? JSON.stringify(value) : String(value)))
    .join(' to ');
}

function guardText(guard: unknown): string {
  if (!guard) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return guard.name || 'guard';
  const { type, params } = guard as { type: string; params?: unknown };
  // Params computed from the event may carry their fixed part as `label` (see checkout.machine.ts).
  const detail = typeof params === 'function' ? paramsText((params as { label?: unknown }).label) : paramsText(params);
  return detail ? `${type} ${detail}` : type;
}

/** The event of a transition as QA reads it: `done loadCheckout`, `after reserveDelay`, `always`. */
export function eventText(eventType: string): string {
  if (eventType === '') return 'always';
  if (eventType.startsWith('xstate.done.actor.')) return `done ${eventType.slice('xstate.done.actor.'.length)}`;
  if (eventType.startsWith('xstate.error.actor.')) return `error ${eventType.slice('xstate.error.actor.'.length)}`;
  if (eventType.startsWith('xstate.after.')) return `after ${eventType.slice('xstate.after.'.length).split('.')[0]}`;
  return eventType;
}

function actionText(action: unknown): string | null {
  if (typeof action === 'string') return action;
  if (action && typeof action === 'object' && 'type' in action) return String((action as { type: string }).type);
  return null;
}

export function transitionLabel(t: AnyTransitionDefinition): string {
  const guard = guardText(t.guard);
  const actions = (t.actions as unknown[]).map(actionText).filter((a): a is string => !!a && !a.startsWith('xstate.'));
  let label = eventText(t.eventType);
  if (guard) label += ` [${guard}]`;
  if (actions.length) label += ` / ${actions.join(', ')}`;
  // Mermaid ends a label at ':' or ';' and reads '#' as an entity.
  return label.replace(/[:;#]/g, ' ');
}

function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  const list: AnyTransitionDefinition[] = [];
  for (const group of node.transitions.values()) list.push(...group);
  list.push(...(node.always ?? []));
  return list;
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return childrenOf(node).flatMap((child) => [child, ...allNodes(child)]);
}

function declare(node: AnyStateNode, indent: string, lines: string[]) {
  const id = nodeId(node);
  const kids = childrenOf(node);
  if (node.type === 'history') {
    lines.push(`${indent}state "${node.history === 'deep' ? 'H*' : 'H'}" as ${id}`);
    return;
  }
  if (!kids.length) {
    lines.push(`${indent}state "${node.key}" as ${id}`);
    if (node.type === 'final') lines.push(`${indent}${id} --> [*]`);
    return;
  }
  lines.push(`${indent}state ${id} {`);
  const initial = node.initial?.target?.[0] as AnyStateNode | undefined;
  if (initial) lines.push(`${indent}  [*] --> ${nodeId(initial)}`);
  for (const kid of kids) declare(kid, `${indent}  `, lines);
  lines.push(`${indent}}`);
}

/**
 * A Mermaid `stateDiagram-v2` of the machine: nested states (named by their path, since keys
 * such as `active` repeat), every transition with its event, guard and actions, `after` delays
 * by name. Transitions of the machine itself without a target are listed by `machineWideEvents`.
 */
export function mermaidDiagram(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  const root = machine.root;
  const initial = root.initial?.target?.[0] as AnyStateNode | undefined;
  if (initial) lines.push(`  [*] --> ${nodeId(initial)}`);
  for (const node of childrenOf(root)) declare(node, '  ', lines);
  for (const node of allNodes(root)) {
    for (const t of transitionsOf(node)) {
      const targets = (t.target ?? []) as AnyStateNode[];
      const to = targets.length ? targets.map(nodeId) : [nodeId(node)];
      for (const target of to) lines.push(`  ${nodeId(node)} --> ${target} : ${transitionLabel(t)}`);
    }
  }
  for (const t of transitionsOf(root)) {
    for (const target of (t.target ?? []) as AnyStateNode[]) {
      lines.push(`  ${nodeId(initial ?? root)} --> ${nodeId(target)} : ${transitionLabel(t)}`);
    }
  }
  return lines.join('\n');
}

/** Transitions handled by the machine in every state (its own `on`, without a target). */
export function machineWideEvents(machine: AnyStateMachine): string[] {
  return transitionsOf(machine.root)
    .filter((t) => !t.target?.length)
    .map(transitionLabel);
}

/** Every state with a description, by path, for the text beside the diagram. */
export function stateDescriptions(machine: AnyStateMachine): Array<{ path: string; description: string }> {
  return allNodes(machine.root)
    .filter((node) => node.description)
    .map((node) => ({ path: node.path.join('.'), description: node.description as string }));
}
