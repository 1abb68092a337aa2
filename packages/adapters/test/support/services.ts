/**
 * The PostgreSQL and Redis the real variants of the contract suites run against, and what it means
 * when one is missing: under CI the suite fails (a green run must have exercised the real adapter,
 * not only its fake), elsewhere it skips with a warning that says so.
 */

import { Redis } from 'ioredis';
import pg from 'pg';

export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EAI_AGAIN',
]);

export function inCi(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/**
 * True when the service answered. When it did not: throws under CI, so the test file fails to
 * load and the run is red; otherwise warns and returns false, and the caller skips its variant.
 */
export function requireUnderCi(what: string, url: string, reachable: boolean): boolean {
  if (reachable) return true;
  const where = url.replace(/\/\/[^@/]*@/, '//');
  if (inCi()) {
    throw new Error(
      `${what} at ${where} is unreachable and CI is set: the real contract variants must run in CI ` +
        '(start the server, or point TEST_DATABASE_URL / TEST_REDIS_URL at it)',
    );
  }
  console.warn(
    `SKIPPED: ${what} at ${where} is unreachable; its contract variants do not run (CI=true fails instead)`,
  );
  return false;
}

/**
 * Whether PostgreSQL answers at all. Only an unreachable server counts as missing: one that answers
 * but refuses us (wrong role, missing database) is a failure the tests must show.
 */
export async function postgresReachable(url = TEST_DATABASE_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = String((error as Error).message ?? '');
    if ((code && UNREACHABLE.has(code)) || /timeout/i.test(message)) return false;
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A connected client when Redis answers PING, else undefined. */
export async function connectRedis(url = TEST_REDIS_URL): Promise<Redis | undefined> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return client;
  } catch {
    client.disconnect();
    return undefined;
  }
}
