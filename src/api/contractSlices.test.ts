/**
 * The browser loads the wire contract a file at a time, as far as the call it makes: the basket's
 * calls load the basket's files only, and every call of the contract is found where the contract
 * describes it.
 */
import { describe, expect, it } from 'vitest';
import * as contract from '../../contract';
import { findCall, loadedSlices } from './contractSlices';

describe('the contract, a file at a time', () => {
  it('finds the basket’s calls in the basket’s own files, loading nothing of the later steps', async () => {
    expect(await findCall('getCheckout')).toBe(contract.calls.getCheckout);
    expect(await findCall('getUser')).toBe(contract.calls.getUser);
    expect(await findCall('updateTicketQuantity')).toBe(contract.calls.updateTicketQuantity);
    expect(loadedSlices()).toEqual(['basket', 'checkout', 'primitives', 'reservation', 'user']);
  });

  it('finds every call of the contract, each as the contract describes it', async () => {
    for (const name of Object.keys(contract.calls) as contract.CallName[]) {
      expect(await findCall(name), name).toBe(contract.calls[name]);
    }
  });

  it('says so for a call no file describes', async () => {
    await expect(findCall('noSuchCall' as contract.CallName)).rejects.toThrow('No file of the contract describes the call noSuchCall');
  });
});
