import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { answerErrors, readRequest } from '../../src/chain/rpc/transport/body.js';
import {
  backoffMs,
  benchMs,
  DEFAULT_RPC_TRANSPORT_POLICY as DEFAULTS,
  resolvePolicy,
} from '../../src/chain/rpc/transport/policy.js';
import { endpointLabels, redactEndpoint, scrubUrls } from '../../src/chain/rpc/transport/redact.js';
import { parseRetryAfter } from '../../src/chain/rpc/transport/retry-after.js';

const NOW = Date.UTC(1994, 10, 6, 8, 49, 0);

describe('parseRetryAfter (RFC 9110 section 10.2.3)', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('2', NOW)).toBe(2_000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
  });

  it('reads an HTTP-date in each of its three forms, relative to now', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(37_000);
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(37_000);
    expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', NOW)).toBe(37_000);
  });

  it('reads a date already past as "now"', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:00:00 GMT', NOW)).toBe(0);
  });

  it('ignores what is absent or in no form of the RFC (Date.parse alone would read "1.5" as a date)', () => {
    for (const value of [null, undefined, '', '1.5', '-1', 'soon', '2025-06-01T12:00:00Z']) {
      expect(parseRetryAfter(value, NOW)).toBeUndefined();
    }
  });
});

describe('redactEndpoint', () => {
  it.each([
    [
      'https://mainnet.helius-rpc.com/?api-key=5f3c9a1e-0000-4b7d-9c55-1f2e3d4c5b6a',
      'https://mainnet.helius-rpc.com',
    ],
    [
      'https://solana-mainnet.g.alchemy.com/v2/AbCdEf0123456789',
      'https://solana-mainnet.g.alchemy.com/v2/***',
    ],
    [
      'https://blue-frost.solana-mainnet.quiknode.pro/8f2a6c0d9e1b/',
      'https://blue-frost.solana-mainnet.quiknode.pro/***/',
    ],
    ['https://user:secret-password@rpc.example.com/rpc', 'https://rpc.example.com/rpc'],
    ['https://rpc.example.com/AbCdEfGhIjKlMnOpQrSt', 'https://rpc.example.com/***'],
    ['http://127.0.0.1:8899', 'http://127.0.0.1:8899'],
    ['https://api.devnet.solana.com/#frag', 'https://api.devnet.solana.com'],
  ])('%s -> %s', (url, redacted) => {
    expect(redactEndpoint(url)).toBe(redacted);
  });

  it('keeps two endpoints of one provider apart once their keys are gone', () => {
    expect(endpointLabels(['https://a.example/?k=1', 'https://a.example/?k=2', 'https://b.example'])).toEqual(
      ['https://a.example', 'https://a.example#2', 'https://b.example'],
    );
  });

  it('scrubs the raw URL and its secret parts out of a message', () => {
    const endpoints = [
      { url: 'https://rpc.example.com/v2/AbCdEf0123456789?api-key=topsecret42', label: 'L' },
    ];
    const message =
      'request to https://rpc.example.com/v2/AbCdEf0123456789?api-key=topsecret42 failed; key AbCdEf0123456789, q api-key=topsecret42';
    expect(scrubUrls(message, endpoints)).toBe('request to L failed; key ***, q ***');
  });
});

describe('policy', () => {
  it('backs off with full jitter under an exponential ceiling, capped', () => {
    expect(backoffMs(DEFAULTS, 1, () => 0)).toBe(0);
    expect(backoffMs(DEFAULTS, 1, () => 0.999_999)).toBe(199);
    expect(backoffMs(DEFAULTS, 2, () => 0.5)).toBe(200);
    expect(backoffMs(DEFAULTS, 4, () => 0.999_999)).toBe(1_599);
    expect(backoffMs(DEFAULTS, 10, () => 0.999_999)).toBe(1_999);
  });

  it('benches for a time doubling with each failure in a row, capped', () => {
    expect([1, 2, 3, 5, 6, 20].map((failures) => benchMs(DEFAULTS, failures))).toEqual([
      1_000, 2_000, 4_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('retries reads and simulations only, known by name', () => {
    const reads = ['getBalance', 'getLatestBlockhash', 'getSignatureStatuses', 'isBlockhashValid'];
    for (const method of [...reads, 'simulateTransaction', 'minimumLedgerSlot', 'localnet_getMints']) {
      expect(DEFAULTS.retryable(method), method).toBe(true);
    }
    for (const method of ['sendTransaction', 'requestAirdrop', 'localnet_mintTo', 'getaway', 'unknown']) {
      expect(DEFAULTS.retryable(method), method).toBe(false);
    }
  });

  it('refuses numbers that make no sense', () => {
    expect(() => resolvePolicy({ deadlineMs: 0 })).toThrow(/deadlineMs/);
    expect(() => resolvePolicy({ backoffBaseMs: -1 })).toThrow(/backoffBaseMs/);
    expect(() => resolvePolicy({ maxAttempts: Number.NaN })).toThrow(/maxAttempts/);
    expect(resolvePolicy({ deadlineMs: 3_000 }).deadlineMs).toBe(3_000);
  });
});

describe('JSON-RPC bodies', () => {
  it('names single and batched requests, and reads an unreadable body as one unknown call', () => {
    expect(readRequest('{"jsonrpc":"2.0","id":1,"method":"getSlot"}').name).toBe('getSlot');
    const batch = readRequest('[{"id":1,"method":"getSlot"},{"id":2,"method":"getBalance"}]');
    expect({ batch: batch.batch, name: batch.name }).toEqual({ batch: true, name: 'getSlot+1' });
    expect(readRequest('not json').calls).toEqual([{ method: 'unknown', id: undefined }]);
  });

  it('matches the error objects of a batch answer to its calls by id, in any order', () => {
    const request = readRequest('[{"id":"a","method":"getSlot"},{"id":"b","method":"getBalance"}]');
    const answer = JSON.stringify([
      { jsonrpc: '2.0', id: 'b', error: { code: -32005, message: 'Node is behind by 40 slots' } },
      { jsonrpc: '2.0', id: 'a', result: 5 },
    ]);
    expect(answerErrors(answer, request)).toEqual([
      undefined,
      { code: -32005, message: 'Node is behind by 40 slots' },
    ]);
  });
});

describe('edge safety', () => {
  it('the transport uses no Node API (workerd loads it)', async () => {
    const dir = new URL('../../src/chain/rpc/transport/', import.meta.url);
    const files = (await readdir(dir)).filter((name) => name.endsWith('.ts'));
    expect(files).toContain('policy.ts');
    for (const name of files) {
      const source = await readFile(new URL(name, dir), 'utf8');
      expect(source, name).not.toMatch(/from '(node:|@solana\/)|\bprocess\.|\bBuffer\b|\bconsole\./);
    }
  });
});
