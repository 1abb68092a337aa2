import { describe, expect, it } from 'vitest';
import { TransactionIndex } from '../src/indexes/transactions.js';

const TREASURY = 'Treasury1111111111111111111111111111111111';
const SYSTEM = '11111111111111111111111111111111';

function filled() {
  const index = new TransactionIndex();
  // Five transactions over two slots; each names the treasury and the System program, and its own payer.
  for (let i = 1; i <= 5; i++) {
    index.add(
      { signature: `sig${i}`, slot: i <= 3 ? 10n : 11n, err: null, memo: null, blockTime: 1_700_000_000 + i },
      [`payer${i}`, TREASURY, SYSTEM, TREASURY],
    );
  }
  return index;
}

const all = { limit: 100, maxSlot: 100n };
const signatures = (entries: readonly { signature: string }[]) => entries.map((e) => e.signature);

describe('TransactionIndex', () => {
  it('lists an address newest first, once per transaction, with landing order as seq', () => {
    const index = filled();
    expect(signatures(index.forAddress(TREASURY, all))).toEqual(['sig5', 'sig4', 'sig3', 'sig2', 'sig1']);
    expect(signatures(index.forAddress('payer2', all))).toEqual(['sig2']);
    expect(index.get('sig3')).toEqual({
      signature: 'sig3',
      slot: 10n,
      seq: 2,
      err: null,
      memo: null,
      blockTime: 1_700_000_003,
    });
    expect(signatures(index.inSlot(11n))).toEqual(['sig4', 'sig5']);
    // A signature added twice stays one entry.
    index.add({ signature: 'sig5', slot: 11n, err: null, memo: null, blockTime: 0 }, [TREASURY]);
    expect(index.size).toBe(5);
    expect(index.get('sig5')?.blockTime).toBe(1_700_000_005);
  });

  it('trims the oldest from every address and slot they were listed under, and forgets empty lists', () => {
    const index = filled();
    index.trim(2, () => false);
    expect(index.size).toBe(2);
    expect(signatures(index.forAddress(TREASURY, all))).toEqual(['sig5', 'sig4']);
    expect(signatures(index.forAddress(SYSTEM, all))).toEqual(['sig5', 'sig4']);
    expect(index.forAddress('payer1', all)).toEqual([]);
    expect(index.inSlot(10n)).toEqual([]);
    expect(index.get('sig3')).toBeUndefined();
    // An address whose list emptied is listed again from scratch.
    index.add({ signature: 'sig6', slot: 12n, err: null, memo: null, blockTime: 0 }, ['payer1']);
    expect(signatures(index.forAddress('payer1', all))).toEqual(['sig6']);
  });

  it('stops trimming at the oldest transaction the ledger still knows', () => {
    const index = filled();
    index.trim(1, (signature) => signature === 'sig3');
    expect(index.size).toBe(3);
    expect(signatures(index.forAddress(TREASURY, all))).toEqual(['sig5', 'sig4', 'sig3']);
    expect(signatures(index.inSlot(10n))).toEqual(['sig3']);
  });

  it('pages with before and until, and leaves out slots above the commitment asked for', () => {
    const index = filled();
    expect(signatures(index.forAddress(TREASURY, { ...all, before: 'sig4', until: 'sig1' }))).toEqual([
      'sig3',
      'sig2',
    ]);
    expect(signatures(index.forAddress(TREASURY, { ...all, maxSlot: 10n }))).toEqual([
      'sig3',
      'sig2',
      'sig1',
    ]);
    expect(index.forAddress(TREASURY, { ...all, before: 'unknown' })).toEqual([]);
  });
});
