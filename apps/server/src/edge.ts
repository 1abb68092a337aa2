import { type AppParts, composeEdge, type EdgeIsolate, parseEnv } from '@token-actions/runtime/edge';
import type { ExecutionContext } from 'hono';
import { createApp } from './app.js';
import { type EdgeConfig, EdgeConfigSchema } from './edge/config.js';
import { createEdgeLogger } from './edge/logger.js';
import { appServices } from './services.js';

type Env = Record<string, unknown>;
type App = ReturnType<typeof createApp>;

interface Isolate {
  readonly composition: EdgeIsolate;
  /** The app, built on the first request: the OAuth issuer is PUBLIC_BASE_URL, or that request's origin. */
  app(parts: AppParts, origin: string): App;
}

let isolate: Isolate | undefined;

/** Composed once per isolate from the bindings. */
function isolateFor(env: Env): Isolate {
  if (isolate) return isolate;
  const vars = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const config: EdgeConfig = parseEnv(EdgeConfigSchema, vars);
  const logger = createEdgeLogger(config.LOG_LEVEL);
  let app: App | undefined;
  isolate = {
    composition: composeEdge(config, logger),
    app(parts, origin) {
      app ??= createApp(
        appServices(parts, {
          config,
          logger,
          issuer: config.PUBLIC_BASE_URL ?? origin,
          // Registers OAuth clients only: the admin API is served by the Node server.
          ...(config.OAUTH_ADMIN_TOKEN ? { adminToken: config.OAUTH_ADMIN_TOKEN } : {}),
          adminApi: false,
        }),
      );
      return app;
    },
  };
  return isolate;
}

/**
 * The edge entry (workerd, Cloudflare Workers): the same app as on Node behind `fetch`, and the
 * background loops on a cron trigger, each run doing one pass. Every invocation gets its own
 * PostgreSQL connections (the runtime's composeEdge).
 */
export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const { composition, app } = isolateFor(env);
    return composition.run(ctx, async (parts) =>
      app(parts, new URL(request.url).origin).fetch(request, env, ctx),
    );
  },
  scheduled(_event: unknown, env: Env, ctx: ExecutionContext): Promise<void> {
    return isolateFor(env).composition.run(ctx, (composed) => composed.runLoopsOnce());
  },
};
