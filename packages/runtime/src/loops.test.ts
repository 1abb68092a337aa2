import { describe, expect, it } from 'vitest';
import { finalityWaitMs } from './loops.js';

describe('finalityWaitMs', () => {
  it('is three quarters of the slots between confirmation and finality', () => {
    // Mainnet's (and the localnet's default) 32 slots of 400 ms: final about 12.4 s after confirmed.
    expect(finalityWaitMs({ SLOT_INTERVAL_MS: 400, FINALITY_DEPTH_SLOTS: 32 })).toBe(9_300);
    // A fast test localnet waits next to nothing; a depth of one slot not at all.
    expect(finalityWaitMs({ SLOT_INTERVAL_MS: 20, FINALITY_DEPTH_SLOTS: 4 })).toBe(45);
    expect(finalityWaitMs({ SLOT_INTERVAL_MS: 400, FINALITY_DEPTH_SLOTS: 1 })).toBe(0);
  });
});
