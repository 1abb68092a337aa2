import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { composeServer, type ServerComposition } from '@token-actions/runtime';
import { resolveAdminToken } from './admin/token.js';
import { createApp } from './app.js';
import type { ServerConfig } from './config.js';
import { type DevCredentials, ensureDevApiKey, writeDevCredentials } from './dev-credentials.js';
import { nodeDocsBundle } from './docs/node-assets.js';
import { belowAppErrorHandler } from './http/below-app.js';
import { closeIdleWithoutResets } from './http/keep-alive.js';
import { SecuredResponse } from './http/secured-response.js';
import type { Logger } from './logger.js';
import { DEMO_CLIENT_ID, seedDemoClient } from './oauth/index.js';
import { appServices } from './services.js';

export interface RunningServer {
  readonly baseUrl: string;
  readonly credentials: DevCredentials;
  readonly credentialsPath: string;
  readonly composition: ServerComposition;
  /** The router that matches requests, once one has been answered (`SmartRouter + RegExpRouter`). */
  routerName(): string;
  /** One pass of the worker loops, for tests that do not want to wait for the timer. */
  tickWorker(): Promise<void>;
  close(): Promise<void>;
}

type FetchHandler = ReturnType<typeof createApp>['fetch'];

/** How often Node checks the header and request deadlines of open connections. */
const CONNECTION_SWEEP_MS = 1_000;

/** Starts the service on Node: composition, HTTP listener, in-process worker loops, dev credentials. */
export async function startServer(config: ServerConfig, logger: Logger): Promise<RunningServer> {
  const composition = await composeServer(config, logger);
  const { deps } = composition;
  const apiKey = await ensureDevApiKey(config.DATA_DIR, deps);
  const adminToken = await resolveAdminToken(config, composition.isLocalnet);

  // The OAuth issuer is this server's own URL, known once the port is bound (PORT=0 picks one),
  // so the socket is bound first and answers 503 for the moment until the app exists.
  let handler: FetchHandler = () => Response.json({ message: 'starting' }, { status: 503 });
  const listener = getRequestListener((request, env) => handler(request, env as object), {
    hostname: config.HOST,
    // A request the adapter cannot even turn into a URL (a Host of "a@b", a backslash target)
    // never reaches the app; it still gets the documented JSON error instead of an empty 400.
    errorHandler: belowAppErrorHandler(logger),
  });
  const server = createServer(
    {
      // Slowloris and stalled bodies: Node only enforces these on its connection sweep, whose
      // default period (30 s) would let a request outlive its deadline by that much.
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: CONNECTION_SWEEP_MS,
      // Security headers added as each answer's head is written: the middleware then leave the
      // response alone, sparing @hono/node-server a Headers copy of every answer.
      ServerResponse: SecuredResponse,
    },
    listener,
  );
  closeIdleWithoutResets(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(config.PORT, config.HOST);
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const baseUrl = config.PUBLIC_BASE_URL ?? `http://${host}:${port}`;

  const app = createApp(
    appServices(composition, {
      config,
      logger,
      issuer: baseUrl,
      // ADMIN_TOKEN, its old name, or generated on a localnet: the admin API, /metrics, client registration.
      ...(adminToken ? { adminToken } : {}),
      adminApi: true,
      docsBundle: nodeDocsBundle(),
      // The development wallet signs in on the chain this process embeds, never on one it reaches
      // over RPC (even a localnet's): there the wallet is someone's.
      ...(composition.localnet ? { devWallet: true } : {}),
      ...(composition.isLocalnet ? { demoClientId: DEMO_CLIENT_ID } : {}),
    }),
  );
  handler = app.fetch;

  const loops = config.RUN_WORKER ? composition.startLoops() : undefined;

  const oauth = composition.isLocalnet
    ? await seedDemoClient({
        store: composition.oauthStore,
        clock: deps.clock,
        issuer: baseUrl,
        // The reference page's Authorize comes back to the page itself (Scalar's default).
        extraRedirectUris: [`${baseUrl.replace(/\/+$/, '')}/v1/docs`],
      })
    : undefined;
  const credentials: DevCredentials = {
    baseUrl,
    apiKey,
    ...(composition.isLocalnet && adminToken ? { adminToken } : {}),
    rpcUrl: deps.chain.cluster.rpcUrl,
    ...(composition.localnet ? { wsUrl: composition.localnet.wsUrl } : {}),
    // Known here even when the localnet serves no JSON-RPC (LOCALNET_RPC=false).
    mints: Object.fromEntries(
      deps.currencies.all.flatMap((currency) => (currency.mint ? [[currency.code, currency.mint]] : [])),
    ),
    ...(oauth ? { oauth } : {}),
  };
  const credentialsPath = await writeDevCredentials(config.DATA_DIR, credentials);

  return {
    baseUrl,
    credentials,
    credentialsPath,
    composition,
    routerName: () => app.router.name,
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
