/**
 * Development only (loaded behind `import.meta.env.DEV`): 'Copy for Stately' puts the root chart on
 * the clipboard as `createMachine(<config>)`, ready to paste into the Stately visualiser.
 */
import { useState } from 'react';
import { machineConfigText } from '../../machines/charts';
import { checkoutMachine } from '../../machines/checkout/checkout.machine';

export default function DevTools() {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="dev-button"
      onClick={async () => {
        await navigator.clipboard.writeText(`createMachine(${machineConfigText(checkoutMachine)})`);
        setCopied(true);
        window.setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? 'Copied' : 'Copy for Stately'}
    </button>
  );
}
