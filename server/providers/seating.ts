/** The seating chart's provider: seats.io when its keys are set, else our own seat map and holds (provider 'holdfast'). */
import type { Config } from '../config.ts';
import type { SeatingProvider } from '../domain/seating/provider.ts';
import { seatsioSeats } from './seatsio.ts';

export function seatingWiring(config: Pick<Config, 'seatsio'>): SeatingProvider | null {
  return config.seatsio ? seatsioSeats(config.seatsio) : null;
}
