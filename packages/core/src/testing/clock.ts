import { encodeBase58 } from '../domain/base58.js';
import type { ClockPort, IdsPort, MacPort } from '../ports/clock.js';

export interface FixedClock extends ClockPort {
  /** Moves time forward (or back, with a negative value) by `ms` milliseconds. */
  advance(ms: number): void;
  set(at: Date): void;
}

/** A clock that only moves when told to, so expiry rules can be tested without waiting. */
export function createFixedClock(start: Date = new Date('2025-01-01T00:00:00.000Z')): FixedClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(at) {
      current = at.getTime();
    },
  };
}

export function createSystemClock(): ClockPort {
  return { now: () => new Date() };
}

/** Predictable ids (`esc_1`, `esc_2`, ...) so tests can name what they expect. */
export function createSequentialIds(): IdsPort {
  const counters = new Map<string, number>();
  return {
    next(prefix) {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      return `${prefix}_${n}`;
    },
  };
}

/** 128 random bits in base58: URL-safe and unguessable. */
export function createRandomIds(): IdsPort {
  return {
    next(prefix) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      return `${prefix}_${encodeBase58(bytes)}`;
    },
  };
}

const TEST_MAC_KEY = new TextEncoder().encode('token-actions test mac key, not a secret');

/** HMAC-SHA256 under a fixed (or given) key; the same construction as the real adapter. */
export function createTestMac(key: Uint8Array = TEST_MAC_KEY): MacPort {
  const imported = crypto.subtle.importKey(
    'raw',
    key as BufferSource,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return {
    async sign(data) {
      return new Uint8Array(await crypto.subtle.sign('HMAC', await imported, data as BufferSource));
    },
    async verify(data, tag) {
      return crypto.subtle.verify('HMAC', await imported, tag as BufferSource, data as BufferSource);
    },
  };
}
