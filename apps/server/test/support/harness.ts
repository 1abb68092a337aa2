import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { copyEmbeddedTemplate } from '../support/embedded-template.js';

export interface Harness {
  readonly server: RunningServer;
  readonly baseUrl: string;
  readonly apiKey: string;
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; json: any; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * The real service on its embedded defaults (LiteSVM + an embedded PostgreSQL server), on a free
 * port and a fresh data dir. The database starts from a copy of the run's migrated template
 * cluster (initdb once per run, not per server) unless `freshDatabase` asks for a real first start.
 */
export async function startHarness(
  env: Record<string, string> = {},
  makeLogger: (level: string) => ReturnType<typeof createLogger> = (level) => createLogger(level),
  options: { readonly freshDatabase?: boolean } = {},
): Promise<Harness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'token-actions-'));
  // EMBEDDED_DATABASE=pglite in the environment runs the in-process tests on PGlite instead.
  if (process.env.EMBEDDED_DATABASE && !env.EMBEDDED_DATABASE)
    env = { ...env, EMBEDDED_DATABASE: process.env.EMBEDDED_DATABASE };
  const embeddedPostgres = !env.DATABASE_URL && (env.EMBEDDED_DATABASE ?? 'postgres') === 'postgres';
  if (embeddedPostgres && !options.freshDatabase)
    await copyEmbeddedTemplate(inject('embeddedPostgresTemplate'), dataDir);
  const config = parseConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SLOT_INTERVAL_MS: '20',
    FINALITY_DEPTH_SLOTS: '4',
    WORKER_INTERVAL_MS: '100',
    LOCALNET_RPC_PORT: '0',
    ...env,
  });
  const server = await startServer(config, makeLogger(config.LOG_LEVEL));
  const { baseUrl, credentials } = server;
  return {
    server,
    baseUrl,
    apiKey: credentials.apiKey,
    async call(method, path, body, headers = {}) {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${credentials.apiKey}`,
          'content-type': 'application/json',
          ...headers,
        },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.status, json, headers: res.headers };
    },
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
