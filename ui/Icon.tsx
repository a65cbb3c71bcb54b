/** The few inline icons the checkout needs; no icon pack, so no extra weight or requests. */
const PATHS = {
  check: 'M20 6 9 17l-5-5',
  close: 'M18 6 6 18M6 6l12 12',
  error: 'M12 8v5m0 3.5v.01M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Z',
  warning: 'M12 9v4m0 3.5v.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z',
  info: 'M12 16v-4m0-3.5v-.01M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Z',
  trash: 'M3 6h18M8 6V4h8v2m-9 0 1 14h8l1-14',
  minus: 'M5 12h14',
  plus: 'M12 5v14M5 12h14',
  clock: 'M12 7v5l3 2M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Z',
  chevron: 'm6 9 6 6 6-6',
  basket: 'M5 8h14l-1.5 11h-11L5 8Zm4 0V6a3 3 0 0 1 6 0v2',
  ticket: 'M3 8a2 2 0 0 0 0 4v4h18v-4a2 2 0 0 1 0-4V4H3v4Zm10-4v12',
  gift: 'M4 11h16v9H4zM2 7h20v4H2zm10 0v13M12 7S11 3 8 3a2 2 0 0 0 0 4m4 0s1-4 4-4a2 2 0 0 1 0 4',
  shield: 'M12 2 4 5v6c0 5 3.5 9.5 8 11 4.5-1.5 8-6 8-11V5l-8-3Z',
  lock: 'M6 11h12v10H6zm2 0V7a4 4 0 0 1 8 0v4',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  share: 'M4 13v7h16v-7M12 16V3M7 8l5-5 5 5',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      className={`icon${className ? ` ${className}` : ''}`}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
