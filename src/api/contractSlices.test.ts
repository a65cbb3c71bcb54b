/**
 * The browser loads the wire contract a file at a time, as far as the call it makes: the basket's
 * calls load the basket's files only, and every call of the contract is found where the contract
 * describes it.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as contract from '../../contract';

/** A call as the contract describes it, for comparing descriptions loaded anew. */
const described = (c: contract.Call) => ({ path: c.path, method: c.method });

/** A fresh loader, as a page starts with: nothing of the contract loaded yet. */
let findCall: typeof import('./contractSlices').findCall;
let loadedSlices: typeof import('./contractSlices').loadedSlices;
beforeEach(async () => {
  vi.resetModules();
  ({ findCall, loadedSlices } = await import('./contractSlices'));
});

describe('the contract, a file at a time', () => {
  it('finds the basket’s calls in the basket’s own files, loading nothing of the later steps', async () => {
    expect(loadedSlices()).toEqual([]);
    expect(described(await findCall('getCheckout'))).toEqual(described(contract.calls.getCheckout));
    expect(described(await findCall('getUser'))).toEqual(described(contract.calls.getUser));
    expect(described(await findCall('updateTicketQuantity'))).toEqual(described(contract.calls.updateTicketQuantity));
    expect(loadedSlices()).toEqual(['basket', 'checkout', 'primitives', 'reservation', 'user']);
  });

  it('finds every call of the contract, each as the contract describes it', async () => {
    for (const name of Object.keys(contract.calls) as contract.CallName[]) {
      expect(described(await findCall(name)), name).toEqual(described(contract.calls[name]));
    }
  });

  it('says so for a call no file describes', async () => {
    await expect(findCall('noSuchCall' as contract.CallName)).rejects.toThrow(
      'No file of the contract describes the call noSuchCall',
    );
  });
});
