/** The order-completed tiles' icons, drawn inline like the checkout's own (no icon pack). */
const PATHS = {
  live: 'M2 7h14v10H2zM16 10l6-3v10l-6-3',
  wallet: 'M3 7h18v12H3zM3 7l3-4h12l3 4M16 13h2',
  feedback: 'M4 4h16v12H8l-4 4V4Zm4 5h8M8 12h5',
  transfer: 'M4 8h13l-3-3m6 11H7l3 3',
  bed: 'M3 18V6m0 8h18v4M21 14v-2a3 3 0 0 0-3-3h-7v5M7 11.5a1.5 1.5 0 1 0 0-.01',
  share: 'M18 8a3 3 0 1 0 0-.01M6 15a3 3 0 1 0 0-.01M18 19a3 3 0 1 0 0-.01M8.6 13.5l6.8-4M8.6 16.5l6.8 4',
} as const;

export type TileIconName = keyof typeof PATHS;

export function TileIcon({ name }: { name: TileIconName }) {
  return (
    <svg
      className="icon"
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
