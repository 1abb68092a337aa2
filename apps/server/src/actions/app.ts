import type { ActionGetResponse, ActionPostResponse, ActionsJson } from '@solana/actions';
import {
  type ActionDeps,
  type ActionDescriptor,
  actionCatalog,
  actionMetadata,
  actionsJson,
  isDomainError,
  prepareForWallet,
  presetValues,
  type RateLimiterPort,
  readActionRequest,
  toBase64,
} from '@token-actions/core';
import { type Context, Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { limitBody } from '../http/body-limit.js';
import { DomainHttpError, statusOf } from '../http/errors.js';
import { requestLogger } from '../http/request-context.js';
import { unwrap } from '../http/respond.js';
import type { Logger } from '../logger.js';
import { actionHeaders } from './headers.js';
import { ACTION_ICON_SVG } from './icon.js';

export const ACTIONS_PREFIX = '/v1/actions';

export interface ActionsAppOptions {
  readonly deps: ActionDeps;
  readonly logger: Logger;
  /** CAIP-2 id for `X-Blockchain-Ids` (see `chainIdResolver`). */
  readonly chainId: () => Promise<string>;
  /** The service's public origin, for the icon's absolute URL; default: the request's origin. */
  readonly baseUrl?: string;
  /** Per-address cap on POSTs: each one prepares and records a transaction the treasury would pay
   * the fee of, and the routes take no credentials. */
  readonly postLimit?: {
    readonly rateLimiter: RateLimiterPort;
    readonly perAddressPerMinute: number;
    readonly addressOf?: (c: Context) => string | undefined;
  };
}

const MAX_POST_BYTES = 8 * 1024;

function nodeRemoteAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/** Action errors (spec "Action Errors"): `{message}`, never internals. */
function actionError(c: Context, status: ContentfulStatusCode, message: string) {
  return c.json({ message }, status);
}

/**
 * Solana Actions (spec v2.4) as a sub-app: `GET /actions.json` (and its `.well-known` twin), and
 * per action `GET` metadata, `POST {account}` answering a transaction for that wallet, `OPTIONS`.
 * Every answer, errors and preflights included, carries the actions CORS headers,
 * `X-Action-Version` and `X-Blockchain-Ids`. The protocol itself is in core (`actionCatalog`,
 * `actionMetadata`, `readActionRequest`, `prepareForWallet`); this only adapts it to HTTP.
 */
export function createActionsApp(options: ActionsAppOptions): Hono {
  const { deps, logger } = options;
  const catalog = actionCatalog(deps.currencies);
  const app = new Hono();

  app.onError((error, c) => {
    const domain = error instanceof DomainHttpError ? error.error : isDomainError(error) ? error : undefined;
    if (domain) {
      const status = statusOf(domain.code);
      if (status < 500) return actionError(c, status, domain.message);
      requestLogger(c, logger).error({ code: domain.code, context: domain.context }, 'action failed');
      return actionError(c, status, 'the service could not prepare the transaction; try again');
    }
    if (error instanceof HTTPException) return actionError(c, error.status, error.message || 'bad request');
    requestLogger(c, logger).error({ err: error }, 'unhandled action error');
    return actionError(c, 500, 'internal server error');
  });

  const withHeaders = async (c: Context, next: () => Promise<void>) => {
    let chainId: string;
    try {
      chainId = await options.chainId();
    } catch (error) {
      requestLogger(c, logger).error({ err: error }, 'the chain id could not be read');
      return c.json({ message: 'the chain is unavailable; try again' }, 503, actionHeaders('solana'));
    }
    const headers = actionHeaders(chainId);
    if (c.req.method === 'OPTIONS') return c.body(null, 204, headers);
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
  for (const path of ['/actions.json', '/.well-known/actions.json', ACTIONS_PREFIX, `${ACTIONS_PREFIX}/*`]) {
    app.use(path, withHeaders);
  }

  const rules = actionsJson(catalog, ACTIONS_PREFIX) satisfies ActionsJson;
  app.get('/actions.json', (c) => c.json(rules));
  app.get('/.well-known/actions.json', (c) => c.json(rules));
  app.get(`${ACTIONS_PREFIX}/icon.svg`, (c) =>
    c.body(ACTION_ICON_SVG, 200, {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
    }),
  );

  const limitPost = limitBody({
    maxSize: MAX_POST_BYTES,
    onError: (c) => actionError(c, 413, `request body exceeds ${MAX_POST_BYTES} bytes`),
  });

  for (const descriptor of catalog) {
    const path = `${ACTIONS_PREFIX}/${descriptor.path}`;
    app.get(path, (c) => c.json(metadataOf(c, descriptor, path)));
    app.post(path, limitPost, async (c) => {
      const refused = await overLimit(c);
      if (refused) return refused;
      const body = await readJson(c);
      const request = await unwrap(readActionRequest(descriptor, c.req.query(), body));
      const prepared = await unwrap(prepareForWallet(deps, descriptor.type, request.fields, request.account));
      const answer = {
        type: 'transaction',
        transaction: toBase64(prepared.transaction),
        message: prepared.message,
      } satisfies ActionPostResponse;
      return c.json(answer);
    });
  }
  app.all(`${ACTIONS_PREFIX}/*`, (c) => actionError(c, 404, `no action at ${c.req.path}`));

  function metadataOf(c: Context, descriptor: ActionDescriptor, path: string) {
    const origin = options.baseUrl ?? new URL(c.req.url).origin;
    return actionMetadata(descriptor, {
      path,
      iconUrl: `${origin}${ACTIONS_PREFIX}/icon.svg`,
      fixed: presetValues(descriptor, c.req.query()),
    }) satisfies ActionGetResponse;
  }

  async function overLimit(c: Context): Promise<Response | undefined> {
    const limit = options.postLimit;
    if (!limit) return undefined;
    const address = (limit.addressOf ?? nodeRemoteAddress)(c) ?? 'unknown';
    const decision = await unwrap(
      limit.rateLimiter.hit(`actions:${address}`, limit.perAddressPerMinute, 60_000),
    );
    if (decision.allowed) return undefined;
    c.header('Retry-After', String(Math.max(1, Math.ceil(decision.resetMs / 1000))));
    return actionError(c, 429, 'too many action requests from this address; retry later');
  }

  return app;
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HTTPException(400, { message: 'the body must be JSON: {"account": "<base58 public key>"}' });
  }
}
