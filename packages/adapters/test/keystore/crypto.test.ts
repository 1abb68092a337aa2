// The crypto helpers sit beside the keystore: both are the service's WebCrypto surface.
import { decodeBase58 } from '@token-actions/core';
import { createTestMac } from '@token-actions/core/testing';
import { describe, expect, it } from 'vitest';
import { createHmacMac, randomToken, sha256Hex } from '../../src/crypto/index.js';

describe('createHmacMac', () => {
  const key = Uint8Array.from({ length: 32 }, (_, i) => i);
  const data = new TextEncoder().encode('preview payload');

  it('produces an HMAC-SHA256 tag it verifies', async () => {
    const mac = createHmacMac(key);
    const tag = await mac.sign(data);
    expect(tag).toHaveLength(32);
    expect(await mac.verify(data, tag)).toBe(true);
  });

  it('matches node:crypto HMAC-SHA256', async () => {
    const { createHmac } = await import('node:crypto');
    const expected = createHmac('sha256', key).update(data).digest();
    expect(Buffer.from(await createHmacMac(key).sign(data))).toEqual(expected);
  });

  it('rejects a changed message, a changed tag and another key', async () => {
    const mac = createHmacMac(key);
    const tag = await mac.sign(data);
    expect(await mac.verify(new TextEncoder().encode('preview payloaD'), tag)).toBe(false);
    const flipped = Uint8Array.from(tag);
    flipped[0]! ^= 1;
    expect(await mac.verify(data, flipped)).toBe(false);
    expect(await mac.verify(data, tag.subarray(0, 16))).toBe(false);
    expect(await createHmacMac(Uint8Array.from(key).fill(9)).verify(data, tag)).toBe(false);
  });

  it('refuses a key shorter than the hash output', () => {
    expect(() => createHmacMac(new Uint8Array(16))).toThrow(/32 bytes/);
  });

  it('agrees with the fake used in core tests when given the same key', async () => {
    expect(await createTestMac(key).sign(data)).toEqual(await createHmacMac(key).sign(data));
  });
});

describe('sha256Hex', () => {
  it('hashes strings as UTF-8 and bytes as given', async () => {
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe(await sha256Hex('abc'));
  });
});

describe('randomToken', () => {
  it('is prefixed base58 of the requested number of random bytes', () => {
    const token = randomToken('tak');
    expect(token).toMatch(/^tak_[1-9A-HJ-NP-Za-km-z]+$/);
    expect(decodeBase58(token.slice(4))!.length).toBeLessThanOrEqual(32);
    expect(randomToken('x', 16)).not.toBe(randomToken('x', 16));
    expect(randomToken('')).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
  });

  it('refuses too little randomness', () => {
    expect(() => randomToken('tak', 8)).toThrow();
  });
});
