import { base58 } from '@scure/base';
import { describe, expect, it, vi } from 'vitest';
import { encodeBase58 } from './base58.js';
import { parsePriority, percentile } from './priority.js';
import { isPublicKey, isSignature, parsePublicKey, parseSignature } from './public-key.js';
import { Recent } from './recent.js';
import { canTransition, TX_STATUSES } from './transaction.js';
import {
  assembleTransaction,
  encodeShortVec,
  fromBase64,
  fromBase64Url,
  toBase64,
  toBase64Url,
} from './wire.js';

describe('public keys and signatures', () => {
  const key = encodeBase58(new Uint8Array(32).fill(7));
  const sig = encodeBase58(new Uint8Array(64).fill(9));

  it('accepts base58 of exactly 32 / 64 bytes', () => {
    expect(parsePublicKey(key).isOk()).toBe(true);
    expect(parseSignature(sig).isOk()).toBe(true);
  });

  it.each([
    ['', 'base58 public key string'],
    ['0OIl', 'not valid base58'],
    [encodeBase58(new Uint8Array(31).fill(1)), '32 bytes, got 31'],
    [encodeBase58(new Uint8Array(64).fill(1)), '32 bytes, got 64'],
  ])('rejects public key %j', (input, fragment) => {
    const e = parsePublicKey(input, 'charity')._unsafeUnwrapErr();
    expect(e.code).toBe('INVALID_PUBLIC_KEY');
    expect(e.message).toContain('charity');
    expect(e.message).toContain(fragment);
  });

  it('rejects a public key as a transaction id', () => {
    expect(parseSignature(key)._unsafeUnwrapErr().code).toBe('INVALID_TRANSACTION_ID');
    expect(parseSignature('not-base58!')._unsafeUnwrapErr().code).toBe('INVALID_TRANSACTION_ID');
  });

  // Well-formed keys and ids are remembered (bounded sets); the answers must not depend on it.
  it.each([
    { kind: 'transaction ids', bytes: 64, count: 6_000, parse: parseSignature, is: isSignature },
    { kind: 'public keys', bytes: 32, count: 11_000, parse: parsePublicKey, is: isPublicKey },
  ])('judges $kind the same whether seen before, remembered or forgotten', ({ bytes, count, parse, is }) => {
    const values: string[] = [];
    for (let i = 0; i < count; i++) {
      const length = i % 5 === 0 ? bytes - 1 + (i % 3) : bytes; // some a byte short or long
      values.push(base58.encode(crypto.getRandomValues(new Uint8Array(length))));
      if (i % 7 === 0) values.push(`${values.at(-1)!.slice(0, -1)}0`); // '0' is not base58
    }
    const expected = (value: string) => {
      try {
        return base58.decode(value).length === bytes;
      } catch {
        return false;
      }
    };
    // Twice over, the second time backwards: past the bound, early ones were forgotten again.
    for (const order of [values, [...values].reverse()]) {
      for (const value of order) {
        expect(parse(value).isOk(), value).toBe(expected(value));
        expect(is(value), value).toBe(expected(value));
      }
    }
    const long = encodeBase58(new Uint8Array(bytes + 1).fill(3));
    for (let i = 0; i < 2; i++) {
      expect(parse(long)._unsafeUnwrapErr().message).toContain(
        `must decode to ${bytes} bytes, got ${bytes + 1}`,
      );
    }
  });
});

describe('Recent', () => {
  it('keeps at most its bound, the oldest entry making room first', () => {
    const memo = new Recent<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) memo.remember(key, i);
    memo.remember('b', 10); // known: nothing leaves
    expect(['a', 'b', 'c'].map((key) => memo.get(key))).toEqual([0, 10, 2]);
    memo.remember('d', 3);
    expect(memo.has('a')).toBe(false);
    expect(['b', 'c', 'd'].map((key) => memo.get(key))).toEqual([10, 2, 3]);
    memo.remember('e', 4);
    expect(memo.has('b')).toBe(false);
    expect(memo.has('c') && memo.has('d') && memo.has('e')).toBe(true);
  });
});

describe('priority', () => {
  it('knows the five levels and names them when rejecting', () => {
    expect(parsePriority('VeryHigh')._unsafeUnwrap()).toBe('VeryHigh');
    const e = parsePriority('Urgent')._unsafeUnwrapErr();
    expect(e.code).toBe('UNKNOWN_PRIORITY');
    expect(e.message).toContain('Min, Low, Medium, High, VeryHigh');
  });

  it('takes nearest-rank percentiles', () => {
    const fees = [50n, 10n, 40n, 20n, 30n];
    expect(percentile(fees, 0)).toBe(10n);
    expect(percentile(fees, 25)).toBe(20n);
    expect(percentile(fees, 50)).toBe(30n);
    expect(percentile(fees, 75)).toBe(40n);
    expect(percentile(fees, 95)).toBe(50n);
    expect(percentile([], 95)).toBe(0n);
  });
});

describe('status machine', () => {
  it('only moves forward', () => {
    expect(canTransition('pending', 'processed')).toBe(true);
    expect(canTransition('pending', 'finalized')).toBe(true);
    expect(canTransition('confirmed', 'processed')).toBe(false);
    // A processed transaction on a dropped fork can still expire; a confirmed one cannot vanish.
    expect(canTransition('processed', 'expired')).toBe(true);
    expect(canTransition('confirmed', 'expired')).toBe(false);
    for (const terminal of ['finalized', 'failed', 'expired'] as const) {
      for (const to of TX_STATUSES) expect(canTransition(terminal, to)).toBe(false);
    }
  });
});

describe('wire', () => {
  it('encodes compact-u16 lengths', () => {
    expect([...encodeShortVec(1)]).toEqual([1]);
    expect([...encodeShortVec(128)]).toEqual([0x80, 0x01]);
    expect([...encodeShortVec(16384)]).toEqual([0x80, 0x80, 0x01]);
  });

  it('lays out signatures before the message', () => {
    const wire = assembleTransaction(Uint8Array.of(1, 2, 3), [new Uint8Array(64).fill(5)]);
    expect(wire.length).toBe(1 + 64 + 3);
    expect(wire[0]).toBe(1);
    expect(wire[64]).toBe(5);
    expect([...wire.subarray(65)]).toEqual([1, 2, 3]);
  });

  it('round-trips base64url and refuses other alphabets', () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => i % 256);
    expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
    expect(fromBase64Url('ab+/')).toBeUndefined();
  });
});

describe('base58 names of keys', () => {
  const random = (length: number) => crypto.getRandomValues(new Uint8Array(length));

  it('names every key as base58 does, past the number it remembers and in any order', () => {
    const keys = Array.from({ length: 20_000 }, () => random(32));
    const first = keys.map(encodeBase58);
    const again = [...keys].reverse().map(encodeBase58).reverse();
    for (let i = 0; i < keys.length; i++) {
      expect(first[i]).toBe(base58.encode(keys[i]!));
      expect(again[i]).toBe(first[i]);
    }
  });

  it('names the bytes it is given now: a view into a larger buffer, a key changed in place', () => {
    const big = random(100);
    const view = big.subarray(7, 39);
    expect(encodeBase58(view)).toBe(base58.encode(big.slice(7, 39)));
    const key = random(32);
    const before = encodeBase58(key);
    key[0] = (key[0]! + 1) % 256;
    expect(encodeBase58(key)).not.toBe(before);
    expect(encodeBase58(key)).toBe(base58.encode(key));
    // Other lengths (signatures) are encoded each time.
    const sig = random(64);
    expect(encodeBase58(sig)).toBe(base58.encode(sig));
  });
});

describe('base64', () => {
  const samples = [0, 1, 2, 3, 1232, 70_000].map((n) => {
    const whole = Uint8Array.from({ length: n + 5 }, (_, i) => (i * 131 + 7) % 256);
    return whole.subarray(5);
  });
  const reference = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));

  it("encodes with the runtime's Buffer, views included, and round-trips", () => {
    for (const bytes of samples) {
      expect(toBase64(bytes)).toBe(reference(bytes));
      expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    }
  });

  it('encodes the same without a Buffer (a browser, a bare isolate)', async () => {
    vi.stubGlobal('Buffer', undefined);
    vi.resetModules();
    try {
      const portable = await import('./wire.js');
      for (const bytes of samples) expect(portable.toBase64(bytes)).toBe(reference(bytes));
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});
