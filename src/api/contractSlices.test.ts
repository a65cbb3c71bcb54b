/**
 * The browser evaluates the wire contract a file a task (contractSlices.ts): that holds only if
 * every file the contract's index joins is a slice of its own, evaluated before the index, so the
 * index itself has nothing left to build.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadContract } from './contractSlices';
import * as contract from '../../contract';

const read = (file: string) => readFileSync(resolve(import.meta.dirname, file), 'utf8');

describe('the contract, a file a task', () => {
  it('has a slice for every file the index joins, zod’s shared primitives first', () => {
    const joined = [...read('../../contract/index.ts').matchAll(/^import\s+(?!type\b).*from\s+'\.\/(\w+)\.ts'/gm)].map((m) => m[1]!);
    const exported = [...read('../../contract/index.ts').matchAll(/^export \* from '\.\/(\w+)\.ts'/gm)].map((m) => m[1]!);
    const slices = [...read('./contractSlices.ts').matchAll(/import\('\.\.\/\.\.\/contract\/(\w+)'\)/g)].map((m) => m[1]!);
    expect(slices[0]).toBe('primitives');
    expect(new Set(slices).size).toBe(slices.length);
    expect([...new Set([...joined, ...exported])].filter((file) => !slices.includes(file))).toEqual([]);
  });

  it('answers the whole contract once every slice has loaded', async () => {
    const loaded = await loadContract();
    expect(loaded.calls).toBe(contract.calls);
    expect(Object.keys(loaded.calls).length).toBeGreaterThan(20);
  });
});
