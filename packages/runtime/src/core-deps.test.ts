import { describe, expect, it } from 'vitest';
import { randomIds } from './core-deps.js';

describe('randomIds', () => {
  it('answers 16 random bytes per id, never the same bytes twice, across refills of its pool', () => {
    // 2,000 ids span eight fills of the 256-id pool.
    const ids = Array.from({ length: 2_000 }, () => randomIds.next('tx'));
    for (const id of ids) {
      expect(id).toMatch(/^tx_[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(id.slice(3), 'base64url')).toHaveLength(16);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // No id's bytes overlap another's: a pool cut at the wrong offset would repeat 8-byte halves.
    const halves = ids.flatMap((id) => {
      const bytes = Buffer.from(id.slice(3), 'base64url');
      return [bytes.subarray(0, 8).toString('hex'), bytes.subarray(8).toString('hex')];
    });
    expect(new Set(halves).size).toBe(halves.length);
  });
});
