import { OpenAPIHono } from '@hono/zod-openapi';
import {
  type ActionDeps,
  type ActionDescriptor,
  actionCatalog,
  domainError,
  type RateLimiterPort,
} from '@token-actions/core';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { limitBody } from '../http/body-limit.js';
import { errorHandler, type TransportErrors } from '../http/error-handler.js';
import { DomainHttpError } from '../http/errors.js';
import { nodeRemoteAddress } from '../http/remote-address.js';
import { requestLogger } from '../http/request-context.js';
import { unwrap } from '../http/respond.js';
import type { Logger } from '../logger.js';
import { registerActionsJson } from './actions-json.js';
import { registerCharityAction } from './charity.js';
import { registerDonateActions } from './donate.js';
import { actionHeaders } from './headers.js';
import { registerIcon } from './icon.js';
import { registerMerchantAction } from './merchant.js';
import { registerMintAction } from './mint.js';

export const ACTIONS_PREFIX = '/v1/actions';

export type BlinksApp = OpenAPIHono;

export interface BlinksAppOptions {
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

/** What every action route needs: the use-cases' ports, the catalog, and the checks of a POST. */
export interface BlinksContext {
  readonly deps: ActionDeps;
  readonly options: BlinksAppOptions;
  /** The actions the currencies make, from core; each route serves the one at its path. */
  readonly catalog: readonly ActionDescriptor[];
  /** The body limit of a POST, before its body is read. */
  readonly limitPost: MiddlewareHandler;
  /** The per-address cap on POSTs, after the body limit. */
  readonly rateLimitPost: MiddlewareHandler;
}

const MAX_POST_BYTES = 8 * 1024;

/** Action errors (spec "Action Errors"): `{message}`, never internals. */
function actionError(c: Context, status: ContentfulStatusCode, message: string) {
  return c.json({ message }, status);
}

const BLINKS_ERRORS: TransportErrors = {
  render: (c, status, _code, message) => actionError(c, status, message),
  serverFailure: 'the service could not prepare the transaction; try again',
  logs: { failed: 'action failed', unhandled: 'unhandled action error' },
};

/**
 * Solana Actions (spec v2.4) as a sub-app: `GET /actions.json` (and its `.well-known` twin), and
 * per action `GET` metadata, `POST {account}` answering a transaction for that wallet, `OPTIONS`.
 * Every answer, errors and preflights included, carries the actions CORS headers,
 * `X-Action-Version` and `X-Blockchain-Ids`. The protocol itself is in core (`actionCatalog`,
 * `actionMetadata`, `readActionRequest`, `prepareForWallet`); the routes only adapt it to HTTP.
 */
export function createBlinksApp(options: BlinksAppOptions): BlinksApp {
  const { deps, logger } = options;
  const app: BlinksApp = new OpenAPIHono();
  app.onError(errorHandler(BLINKS_ERRORS, logger));

  const withHeaders: MiddlewareHandler = async (c, next) => {
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

  const limitPost = limitBody({
    maxSize: MAX_POST_BYTES,
    onError: (c) => actionError(c, 413, `request body exceeds ${MAX_POST_BYTES} bytes`),
  });
  const blinks: BlinksContext = {
    deps,
    options,
    catalog: actionCatalog(deps.currencies),
    limitPost,
    rateLimitPost: postRateLimit(options.postLimit),
  };

  registerActionsJson(app, blinks);
  registerIcon(app);
  registerDonateActions(app, blinks);
  registerCharityAction(app, blinks);
  registerMerchantAction(app, blinks);
  registerMintAction(app, blinks);
  app.all(`${ACTIONS_PREFIX}/*`, (c) => actionError(c, 404, `no action at ${c.req.path}`));
  return app;
}

/** The per-address cap on action POSTs, when the app has one. */
function postRateLimit(limit: BlinksAppOptions['postLimit']): MiddlewareHandler {
  return async (c, next) => {
    if (!limit) return next();
    const address = (limit.addressOf ?? nodeRemoteAddress)(c) ?? 'unknown';
    const decision = await unwrap(
      limit.rateLimiter.hit(`actions:${address}`, limit.perAddressPerMinute, 60_000),
    );
    if (!decision.allowed) {
      c.header('Retry-After', String(Math.max(1, Math.ceil(decision.resetMs / 1000))));
      return actionError(c, 429, 'too many action requests from this address; retry later');
    }
    await next();
  };
}

/** A POST's body: JSON, else a 400 that says what an action POST carries. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainHttpError(
      domainError('INVALID_INPUT', 'the body must be JSON: {"account": "<base58 public key>"}'),
    );
  }
}
