/** What the donation screen shows, and the events it may send. */
import type { SnapshotFrom } from 'xstate';
import { chosenAmount, type DonationEvent, type donationMachine } from './donation.machine';

export interface DonationView {
  /** The preset shown as chosen (minor units), or null. */
  preset: number | null;
  custom: string;
  /** The amount that would be saved (minor units), or null when none is chosen. */
  amount: number | null;
  problem: string | null;
  saving: boolean;
}

export function viewDonation(snapshot: SnapshotFrom<typeof donationMachine>): DonationView {
  const { preset, custom, problem } = snapshot.context;
  return { preset, custom, amount: chosenAmount(snapshot.context), problem, saving: snapshot.hasTag('saving') };
}

export function donationSenders(send: (event: DonationEvent) => void) {
  return {
    choosePreset: (amount: number) => send({ type: 'PRESET_CHOSEN', amount }),
    typeCustom: (text: string) => send({ type: 'CUSTOM_AMOUNT_TYPED', text }),
    donate: (charityId: number) => send({ type: 'DONATE_CLICKED', charityId }),
    skip: () => send({ type: 'SKIP_CLICKED' }),
  };
}
