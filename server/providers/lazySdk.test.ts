import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeSeatsio, type FakeSeatsio } from '../test/fakeSeatsio.ts';

/** Counts the times the `seatsio` SDK is loaded, and loads the real one. */
const sdk = vi.hoisted(() => ({ loads: 0 }));
vi.mock('seatsio', async (importOriginal) => {
  sdk.loads++;
  return importOriginal();
});

const SECRET = 'sk-test-workspace-secret';

describe('the seats.io SDK is loaded only when seats.io is keyed, on its first call', () => {
  let fake: FakeSeatsio;
  beforeAll(async () => {
    fake = await startFakeSeatsio({ secretKey: SECRET, events: { show: ['Stalls-A-1'] } });
  });
  afterAll(async () => fake?.close());

  it('is not in the server’s modules, nor loaded by wiring it', async () => {
    // The whole server, as main.ts starts it: nothing in it imports the SDK statically.
    await import('../app.ts');
    const { seatingWiring } = await import('./seating.ts');
    const { parseConfig } = await import('../config.ts');
    expect(seatingWiring(parseConfig({}))).toBeNull();
    const keyed = seatingWiring(
      parseConfig({ SEATSIO_PUBLIC_KEY: 'pk-0123456789', SEATSIO_SECRET_KEY: SECRET, SEATSIO_API_BASE: fake.base }),
    );
    expect(keyed).not.toBeNull();
    expect(sdk.loads).toBe(0);

    const token = fake.newHoldToken();
    fake.hold('show', ['Stalls-A-1'], token);
    await keyed!.checkHeld('show', [{ section: 'Stalls', row: 'A', number: '1' }], token);
    await keyed!.checkHeld('show', [{ section: 'Stalls', row: 'A', number: '1' }], token);
    expect(sdk.loads).toBe(1);
  });
});
