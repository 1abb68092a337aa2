import { createRequestScopedSql, type RequestScopedSql } from '@token-actions/adapters/edge';
import { parseEnv } from '@token-actions/runtime/edge';
import type { ExecutionContext } from 'hono';
import { composeEdge, type EdgeComposition } from './edge/compose.js';
import { type EdgeConfig, EdgeConfigSchema } from './edge/config.js';
import { createEdgeLogger } from './edge/logger.js';

type Env = Record<string, unknown>;

interface Isolate {
  readonly db: RequestScopedSql;
  /** Resolved inside the first invocation's scope: composing reads the service keys. */
  composed(): Promise<EdgeComposition>;
}

let isolate: Isolate | undefined;

/** Composed once per isolate from the bindings; a failed composition is retried by the next call. */
function isolateFor(env: Env): Isolate {
  if (isolate) return isolate;
  const vars = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const config: EdgeConfig = parseEnv(EdgeConfigSchema, vars);
  const logger = createEdgeLogger(config.LOG_LEVEL);
  const db = createRequestScopedSql({ connectionString: config.DATABASE_URL });
  let composition: Promise<EdgeComposition> | undefined;
  isolate = {
    db,
    composed() {
      composition ??= composeEdge(config, db, logger).catch((error: unknown) => {
        logger.error(
          { err: error instanceof Error ? error.message : String(error) },
          'edge composition failed',
        );
        composition = undefined;
        throw error;
      });
      return composition;
    },
  };
  return isolate;
}

/**
 * The edge entry (workerd, Cloudflare Workers): the same app as on Node behind `fetch`, and the
 * background loops on a cron trigger, each run doing one pass. Every invocation gets its own
 * PostgreSQL connections (see createRequestScopedSql).
 */
export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const { db, composed } = isolateFor(env);
    return db.scope(ctx, async () => {
      return (await composed()).app(new URL(request.url).origin).fetch(request, env, ctx);
    });
  },
  scheduled(_event: unknown, env: Env, ctx: ExecutionContext): Promise<void> {
    const { db, composed } = isolateFor(env);
    return db.scope(ctx, async () => (await composed()).runLoopsOnce());
  },
};
