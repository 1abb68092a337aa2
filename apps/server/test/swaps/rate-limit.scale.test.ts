/**
 * Two server processes share one Redis; 500 concurrent requests against a limit of
 * 100 admit exactly 100, and every other one is a 429 with remaining 0 and a Retry-After.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireUnderCi } from '../support/services.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 100;
const REQUESTS = 500;
const fixture = fileURLToPath(new URL('../fixtures/swaps-server.ts', import.meta.url));
const serverRoot = fileURLToPath(new URL('../..', import.meta.url));

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const haveRedis = requireUnderCi('Redis', REDIS_URL, await redisReachable());

const runId = `${process.pid}-${Date.now()}`;
const prefix = `ratelimit-test:${runId}:`;
const accessToken = `taat_concurrency_${runId}_${crypto.randomUUID()}`;
const children: ChildProcess[] = [];

async function startServer(): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    cwd: serverRoot,
    env: {
      ...process.env,
      REDIS_URL,
      RATE_LIMIT_PREFIX: prefix,
      ACCESS_TOKEN: accessToken,
      CLIENT_ID: 'concurrency-client',
      PER_CLIENT_LIMIT: String(LIMIT),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  let stdout = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture server did not start: ${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const match = /LISTENING (\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fixture server exited with ${code}: ${stderr}`));
    });
  });
  return { port, child };
}

describe.skipIf(!haveRedis)('rate limiting across two processes sharing Redis', () => {
  let ports: number[] = [];
  beforeAll(async () => {
    const servers = await Promise.all([startServer(), startServer()]);
    ports = servers.map((s) => s.port);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null) return;
        child.kill('SIGTERM');
        await once(child, 'exit');
      }),
    );
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it(`admits exactly ${LIMIT} of ${REQUESTS} concurrent requests`, async () => {
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const res = await fetch(`http://127.0.0.1:${ports[i % 2]}/v1/project/swap?tokenPair=SOL-USDC`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
        return {
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          rateLimit: res.headers.get('ratelimit'),
          body: (await res.json()) as {
            servedBy?: number;
            code?: string;
            rateLimit: { limit: number; remaining: number };
          },
        };
      }),
    );

    const accepted = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(accepted).toHaveLength(LIMIT);
    expect(limited).toHaveLength(REQUESTS - LIMIT);

    // Each admitted request saw a distinct count: remaining runs through 99..0 exactly once.
    expect(accepted.map((r) => r.body.rateLimit.remaining).sort((a, b) => a - b)).toEqual(
      Array.from({ length: LIMIT }, (_, i) => i),
    );
    for (const r of accepted) expect(r.body.rateLimit.limit).toBe(LIMIT);
    // Both processes admitted some: the count really is shared.
    expect(new Set(accepted.map((r) => r.body.servedBy)).size).toBe(2);

    for (const r of limited) {
      expect(r.body).toMatchObject({ code: 'RATE_LIMITED', rateLimit: { limit: LIMIT, remaining: 0 } });
      const retryAfter = Number(r.retryAfter);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(r.rateLimit).toBe(`"client";r=0;t=${retryAfter}`);
    }
    console.info(
      `cross-process rate limit: ${accepted.length} accepted, ${limited.length} rejected with 429 ` +
        `(accepted per process: ${[...new Set(accepted.map((r) => r.body.servedBy))]
          .map((pid) => accepted.filter((r) => r.body.servedBy === pid).length)
          .join(' + ')})`,
    );
  }, 60_000);
});
