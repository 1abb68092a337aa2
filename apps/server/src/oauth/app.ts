import { OpenAPIHono } from '@hono/zod-openapi';
import {
  type ClockPort,
  hashSecret,
  type OAuthConfig,
  type OAuthDeps,
  type OAuthLogger,
  type OAuthSettings,
  type OAuthStore,
  type OutboundUrlPolicy,
  oauthError,
  oauthSettings,
  type RateLimiterPort,
} from '@token-actions/core';
import type { Context, MiddlewareHandler } from 'hono';
import { limitBody } from '../http/body-limit.js';
import { nodeRemoteAddress } from '../http/remote-address.js';
import { requestLogger } from '../http/request-context.js';
import { registerAuthorize } from './authorize.js';
import { registerDemoCallback } from './demo-callback.js';
import { registerIntrospect } from './introspect.js';
import { registerMetadata } from './metadata.js';
import { registerOAuthSecuritySchemes } from './openapi.js';
import { registerClientRegistration } from './register-client.js';
import { createOAuthRenderer, type OAuthRenderer } from './render.js';
import { registerRevoke } from './revoke.js';
import { registerSignInChallenge } from './sign-in-challenge.js';
import { registerSubmitAuthorization } from './submit-authorization.js';
import { registerToken } from './token.js';

export type { OAuthLogger } from '@token-actions/core';

/** A plain Hono app whose routes declare themselves in its OpenAPI registry. */
export type OAuthApp = OpenAPIHono;

export interface OAuthRoutesDeps extends OAuthConfig {
  readonly store: OAuthStore;
  readonly clock: ClockPort;
  /** Enables POST /oauth/clients for callers presenting it as a bearer token. */
  readonly adminToken?: string;
  /** The consent page offers the development wallet: on the embedded localnet only. */
  readonly devWallet?: boolean;
  readonly logger?: OAuthLogger;
  /** The SSRF guard a registered client's webhook URL must pass. */
  readonly webhookUrls?: OutboundUrlPolicy;
  /** Per-address cap on the unauthenticated endpoints that do work or store rows (sign-in
   * challenges, token, revocation, introspection), so they cannot be used to flood the store. */
  readonly abuseLimit?: {
    readonly rateLimiter: RateLimiterPort;
    readonly perAddressPerMinute: number;
    /** Default: the socket's remote address on @hono/node-server. */
    readonly addressOf?: (c: Context) => string | undefined;
  };
}

/** What every OAuth route adapter needs: the protocol's ports and settings, and the renderer. */
export interface OAuthRouteContext {
  /** The protocol's ports for the request `c` serves: their logger's lines carry its id. */
  depsFor(c: Context): OAuthDeps;
  readonly settings: OAuthSettings;
  readonly render: OAuthRenderer;
  /** Hash of the admin token; registration is disabled without one. */
  readonly adminTokenHash?: string;
  /** The consent page offers the development wallet (the embedded localnet). */
  readonly devWallet: boolean;
}

const LIMITED_PATHS = ['/oauth/authorize/challenge', '/oauth/token', '/oauth/revoke', '/oauth/introspect'];

function abuseLimiter(
  limit: NonNullable<OAuthRoutesDeps['abuseLimit']>,
  render: OAuthRenderer,
): MiddlewareHandler {
  const addressOf = limit.addressOf ?? nodeRemoteAddress;
  return async (c, next) => {
    const decision = await limit.rateLimiter.hit(
      `oauth:${addressOf(c) ?? 'unknown'}`,
      limit.perAddressPerMinute,
      60_000,
    );
    if (decision.isErr()) return render.json(c, decision.error);
    if (!decision.value.allowed) {
      const retryAfterSec = Math.max(1, Math.ceil(decision.value.resetMs / 1000));
      return render.json(
        c,
        oauthError('temporarily_unavailable', 'too many requests from this address', {
          refusal: { status: 429, retryAfterSec },
        }),
      );
    }
    await next();
  };
}

/**
 * The OAuth 2.0 authorization server as one sub-app (mounted at `/`): thin adapters that parse
 * the request, call the protocol functions of `@token-actions/core`, and render their Result
 * through one renderer; its error handler covers only what was thrown.
 */
export function createOAuthApp(deps: OAuthRoutesDeps): OAuthApp {
  const render = createOAuthRenderer(deps.logger);
  const shared: OAuthDeps = {
    store: deps.store,
    clock: deps.clock,
    ...(deps.webhookUrls ? { webhookUrls: deps.webhookUrls } : {}),
  };
  const { logger } = deps;
  const context: OAuthRouteContext = {
    depsFor: logger ? (c) => ({ ...shared, logger: requestLogger(c, logger) }) : () => shared,
    settings: oauthSettings(deps),
    render,
    ...(deps.adminToken ? { adminTokenHash: hashSecret(deps.adminToken) } : {}),
    devWallet: deps.devWallet === true,
  };

  const app: OAuthApp = new OpenAPIHono();
  app.use(
    '/oauth/*',
    limitBody({
      maxSize: 64 * 1024,
      onError: (c) =>
        render.json(c, oauthError('invalid_request', 'request body too large', { refusal: { status: 413 } })),
    }),
  );
  if (deps.abuseLimit) {
    const limited = abuseLimiter(deps.abuseLimit, render);
    for (const path of LIMITED_PATHS) app.post(path, limited);
  }
  app.onError((error, c) => render.unexpected(c, error));

  registerOAuthSecuritySchemes(app.openAPIRegistry);
  registerMetadata(app, context);
  registerAuthorize(app, context);
  registerSignInChallenge(app, context);
  registerSubmitAuthorization(app, context);
  registerToken(app, context);
  registerRevoke(app, context);
  registerIntrospect(app, context);
  registerClientRegistration(app, context);
  registerDemoCallback(app, context);
  return app;
}
