/**
 * In development and demo mode: 'Copy for Stately' puts every machine of the checkout on the
 * clipboard, the root and each child as `createMachine(<config>)` (statecharts/all.stately.ts, which
 * `npm run charts` writes), ready to import in the Stately editor as it is.
 */
import { useState } from 'react';
import { createPortal } from 'react-dom';
import allMachines from '../../statecharts/all.stately.ts?raw';

/** The tools' place: first in the header's navigation, which the server draws (server/views/html.ts `checkoutShell`). */
function headerSlot(): HTMLElement | null {
  const nav = document.querySelector('.site-header__nav');
  if (!nav) return null;
  const slot = document.createElement('span');
  slot.className = 'site-header__extra';
  nav.prepend(slot);
  return slot;
}
const slot = headerSlot();

export default function DevTools() {
  return slot ? createPortal(<CopyForStately />, slot) : null;
}

function CopyForStately() {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="dev-button"
      lang="en"
      onClick={async () => {
        await navigator.clipboard.writeText(allMachines);
        setCopied(true);
        window.setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? 'Copied' : 'Copy for Stately'}
    </button>
  );
}
