/**
 * Slow clients are cut within the documented deadlines (README "Timeouts"):
 * headers 10 s, whole request 15 s, idle keep-alive 5 s, each checked every second. Raw sockets on
 * loopback against the real server with its default settings; the four cases run at once.
 */
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { type Harness, startHarness } from '../support/harness.js';

const SWEEP_MS = 1_000;
const SLACK_MS = 1_500;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(async () => {
  await h?.close();
});

/** Opens a loopback connection and resolves, once the server closes it, with what it sent and when. */
function open(): { socket: Socket; closed: Promise<{ afterMs: number; received: string }> } {
  const { hostname, port } = new URL(h.baseUrl);
  expect(hostname).toBe('127.0.0.1');
  const socket = connect(Number(port), hostname);
  const started = performance.now();
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  const closed = new Promise<{ afterMs: number; received: string }>((resolve) => {
    socket.on('close', () => resolve({ afterMs: performance.now() - started, received }));
    socket.on('error', () => {});
  });
  return { socket, closed };
}

describe('server timeouts (defaults, as documented)', () => {
  it('cuts a slowloris, a body that never arrives, a silent and an idle connection in time', async () => {
    // 1. Slowloris: a header line every second, never the blank line that ends them.
    const slowloris = open();
    slowloris.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => {
      if (!slowloris.socket.destroyed) slowloris.socket.write(`X-Drip-${Date.now()}: 1\r\n`);
    }, 1_000);

    // 2. A body announced and never sent, on a route that reads it.
    const stalled = open();
    stalled.socket.write(
      [
        'POST /v1/api/donate/sol HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${h.apiKey}`,
        'Content-Type: application/json',
        'Content-Length: 100',
        '',
        '{"account":',
      ].join('\r\n'),
    );

    // 3. A connection that never says anything.
    const silent = open();

    // 4. A keep-alive connection left idle after one answer.
    const idle = open();
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');

    const [cutSlowloris, cutStalled, cutSilent, cutIdle] = await Promise.all([
      slowloris.closed,
      stalled.closed,
      silent.closed,
      idle.closed,
    ]);
    clearInterval(drip);
    const report = { cutSlowloris, cutStalled, cutSilent, cutIdle };
    console.info(
      `timeouts: slowloris ${Math.round(cutSlowloris.afterMs)} ms, stalled body ${Math.round(cutStalled.afterMs)} ms, ` +
        `silent ${Math.round(cutSilent.afterMs)} ms, idle keep-alive ${Math.round(cutIdle.afterMs)} ms`,
    );

    // Headers: 10 s (HTTP_HEADERS_TIMEOUT_MS), enforced on a 1 s sweep; answered 408.
    expect(cutSlowloris.afterMs, JSON.stringify(report)).toBeGreaterThan(10_000 - SWEEP_MS);
    expect(cutSlowloris.afterMs).toBeLessThan(10_000 + SWEEP_MS + SLACK_MS);
    expect(cutSlowloris.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(cutSilent.afterMs).toBeLessThan(10_000 + SWEEP_MS + SLACK_MS);

    // Headers and body: 15 s (HTTP_REQUEST_TIMEOUT_MS).
    expect(cutStalled.afterMs).toBeGreaterThan(15_000 - SWEEP_MS);
    expect(cutStalled.afterMs).toBeLessThan(15_000 + SWEEP_MS + SLACK_MS);
    expect(cutStalled.received).toMatch(/^HTTP\/1\.1 408 /);

    // Idle keep-alive: 5 s (HTTP_KEEP_ALIVE_TIMEOUT_MS) after the answer; Node adds up to 1 s.
    expect(cutIdle.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(cutIdle.afterMs).toBeGreaterThan(5_000 - SWEEP_MS);
    expect(cutIdle.afterMs).toBeLessThan(5_000 + 1_000 + SLACK_MS);
  }, 40_000);

  it('has the documented figures as its defaults, and the README states them', async () => {
    const config = parseConfig({});
    expect([
      config.HTTP_HEADERS_TIMEOUT_MS,
      config.HTTP_REQUEST_TIMEOUT_MS,
      config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    ]).toEqual([10_000, 15_000, 5_000]);
    const readme = await readFile(new URL('../../../../README.md', import.meta.url), 'utf8');
    for (const [name, figure] of [
      ['HTTP_HEADERS_TIMEOUT_MS', '10 s'],
      ['HTTP_REQUEST_TIMEOUT_MS', '15 s'],
      ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '5 s'],
    ]) {
      expect(readme).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${figure}\\s*\\|`));
    }
  });
});
