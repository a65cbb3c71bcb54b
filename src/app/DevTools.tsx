/**
 * In development and demo mode: 'Copy for Stately' puts every machine of the checkout on the
 * clipboard, the root and each child as `createMachine(<config>)` (statecharts/all.stately.ts, which
 * `npm run charts` writes), ready to import in the Stately editor as it is.
 */
import { useState } from 'react';
import allMachines from '../../statecharts/all.stately.ts?raw';

export default function DevTools() {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="dev-button"
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
