import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { startLoops } from '@token-actions/worker';
import { createApp } from './app.js';
import { compose } from './compose.js';
import type { ServerConfig } from './config.js';
import { type DevCredentials, ensureDevApiKey, writeDevCredentials } from './dev-credentials.js';
import type { Logger } from './logger.js';

export interface RunningServer {
  readonly baseUrl: string;
  readonly credentials: DevCredentials;
  readonly credentialsPath: string;
  readonly composition: Awaited<ReturnType<typeof compose>>;
  /** One pass of the worker loops, for tests that do not want to wait for the timer. */
  tickWorker(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the service on Node: composition, HTTP listener, in-process worker loops, dev credentials. */
export async function startServer(config: ServerConfig, logger: Logger): Promise<RunningServer> {
  const composition = await compose(config, logger);
  const { deps } = composition;
  const apiKey = await ensureDevApiKey(config.DATA_DIR, deps.store.apiKeys);
  const app = createApp({
    deps,
    logger,
    maxBodyBytes: config.MAX_BODY_BYTES,
    isLocalnet: composition.isLocalnet,
  });

  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${port}`;

  const loops = config.RUN_WORKER
    ? startLoops(deps, { intervalMs: config.WORKER_INTERVAL_MS, logger })
    : undefined;

  const credentials: DevCredentials = { baseUrl, apiKey, rpcUrl: deps.chain.cluster.rpcUrl };
  const credentialsPath = await writeDevCredentials(config.DATA_DIR, credentials);

  return {
    baseUrl,
    credentials,
    credentialsPath,
    composition,
    tickWorker: async () => {
      await loops?.tick();
    },
    async close() {
      await loops?.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await composition.close();
    },
  };
}
