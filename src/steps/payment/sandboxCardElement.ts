/**
 * The sandbox card form's fields, kept outside the charts the way a processor's card element
 * keeps the card: the fields write here, and the actor that saves or tokenises the card reads
 * here when the chart asks it to. Square's SDK card, when keyed, is kept here too once attached.
 */
export interface SandboxCard {
  number: string;
  expiry: string;
  cvc: string;
}

let card: SandboxCard = { number: '', expiry: '', cvc: '' };

export const sandboxCardElement = {
  get: (): SandboxCard => card,
  set: (next: Partial<SandboxCard>) => {
    card = { ...card, ...next };
  },
  clear: () => {
    card = { number: '', expiry: '', cvc: '' };
  },
};

/** Square's SDK card once attached to the page (keyed Square only). */
export interface SquareSdkCard {
  tokenize(): Promise<{ status: string; token?: string; errors?: { message: string }[] }>;
  destroy(): Promise<boolean>;
}

let squareCard: SquareSdkCard | null = null;
export const squareCardElement = {
  get: () => squareCard,
  set: (next: SquareSdkCard | null) => {
    squareCard = next;
  },
};
