import { describe, expect, it } from 'vitest';
import { slots } from './slots.ts';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('slots', () => {
  it('runs at most its size at once, the rest in the order they came', async () => {
    const limit = slots(2);
    const started: number[] = [];
    const finish: Array<() => void> = [];
    const runs = [0, 1, 2, 3, 4].map((n) =>
      limit.run(async () => {
        started.push(n);
        await new Promise<void>((resolve) => finish.push(resolve));
        return n;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(limit.load).toEqual({ busy: 2, waiting: 3 });
    finish[1]!();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finish[0]!();
    finish[2]!();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    finish[3]!();
    finish[4]!();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(limit.load).toEqual({ busy: 0, waiting: 0 });
  });

  it('frees the slot of work that fails', async () => {
    const limit = slots(1);
    await expect(limit.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await limit.run(async () => 'next')).toBe('next');
    expect(limit.load).toEqual({ busy: 0, waiting: 0 });
  });
});
