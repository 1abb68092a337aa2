import { decodeBase64 } from '@oslojs/encoding';
import {
  type ClockPort,
  type DomainError,
  type OAuthClientRecord,
  type OAuthScope,
  type OAuthStore,
  parsePublicKey,
  type RateLimiterPort,
} from '@token-actions/core';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ResultAsync } from 'neverthrow';
import { isOAuthScope, OAUTH_SCOPES, registerClient } from './clients.js';
import { consentPage, demoCallbackPage, errorPage, pageSecurityHeaders } from './consent-page.js';
import {
  hashSecret,
  isCodeVerifier,
  isS256Challenge,
  randomId,
  randomSecret,
  SECRET_PREFIX,
  sameSecretHash,
  verifyS256,
} from './secrets.js';
import { siwsMessage, verifyWalletSignature } from './siws.js';
import { isActive, mintTokenPair } from './tokens.js';

/** pino-compatible: fields first, then the message. Fields never carry a secret. */
export interface OAuthLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error?(fields: Record<string, unknown>, message: string): void;
}

export interface OAuthRoutesDeps {
  readonly store: OAuthStore;
  readonly clock: ClockPort;
  /** Base URL of this server, e.g. http://localhost:8787; the RFC 8414 issuer identifier. */
  readonly issuer: string;
  /** Enables POST /oauth/clients for callers presenting it as a bearer token. */
  readonly adminToken?: string;
  readonly logger?: OAuthLogger;
  readonly accessTokenTtlSec: number;
  readonly refreshTokenTtlSec: number;
  /** Capped at 60 s. */
  readonly codeTtlSec: number;
  /** SIWS `Chain ID` line (mainnet, devnet, testnet, localnet); omitted when unset. */
  readonly siwsChainId?: string;
  /** How long a sign-in challenge can be signed and submitted; default 300 s. */
  readonly siwsTtlSec?: number;
  /** Per-address cap on the unauthenticated endpoints that do work or store rows (sign-in
   * challenges, token, revocation, introspection), so they cannot be used to flood the store. */
  readonly abuseLimit?: {
    readonly rateLimiter: RateLimiterPort;
    readonly perAddressPerMinute: number;
    /** Default: the socket's remote address on @hono/node-server. */
    readonly addressOf?: (c: Context) => string | undefined;
  };
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;
const CLOCK_SKEW_MS = 60_000;

class StoreFailure extends Error {
  constructor(readonly domain: DomainError) {
    super(domain.message);
  }
}

/** Route handlers are the edge: a failed port result becomes one response in onError. */
async function must<T>(result: ResultAsync<T, DomainError>): Promise<T> {
  const settled = await result;
  if (settled.isErr()) throw new StoreFailure(settled.error);
  return settled.value;
}

/** RFC 6749 section 3.1: a parameter sent without a value is treated as omitted. */
function param(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  return value === null || value === '' ? undefined : value;
}

function repeatedParam(params: URLSearchParams, names?: readonly string[]): string | undefined {
  for (const name of names ?? new Set(params.keys())) if (params.getAll(name).length > 1) return name;
  return undefined;
}

function parseScope(value: string | undefined): OAuthScope[] | undefined {
  if (value === undefined) return undefined;
  const tokens = value.split(' ').filter(Boolean);
  if (tokens.length === 0 || !tokens.every((t) => isOAuthScope(t))) return undefined;
  return OAUTH_SCOPES.filter((s) => tokens.includes(s));
}

function withParams(uri: string, values: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(values))
    if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

function statementFor(client: OAuthClientRecord, scope: readonly OAuthScope[]): string {
  return `Approve ${client.name} (client ${client.id}) to use this wallet for swaps with scope: ${scope.join(' ')}`;
}

type AuthorizeCheck =
  | { kind: 'page-error'; title: string; detail: string }
  | { kind: 'redirect-error'; redirectUri: string; state?: string; error: string; description: string }
  | {
      kind: 'ok';
      client: OAuthClientRecord;
      redirectUri: string;
      scope: OAuthScope[];
      state?: string;
      codeChallenge: string;
    };

export function createOAuthRoutes(deps: OAuthRoutesDeps): Hono {
  const issuer = deps.issuer.replace(/\/+$/, '');
  const issuerUrl = new URL(issuer);
  const endpoints = {
    authorization: `${issuer}/oauth/authorize`,
    challenge: `${issuer}/oauth/authorize/challenge`,
    token: `${issuer}/oauth/token`,
    revocation: `${issuer}/oauth/revoke`,
    introspection: `${issuer}/oauth/introspect`,
    registration: `${issuer}/oauth/clients`,
  };
  const codeTtlSec = Math.max(1, Math.min(60, deps.codeTtlSec));
  const siwsTtlMs = (deps.siwsTtlSec ?? 300) * 1000;
  const lifetimes = {
    accessTokenTtlSec: deps.accessTokenTtlSec,
    refreshTokenTtlSec: deps.refreshTokenTtlSec,
  };
  const adminTokenHash = deps.adminToken ? hashSecret(deps.adminToken) : undefined;
  const log = deps.logger;

  const app = new Hono();
  app.use(
    '/oauth/*',
    bodyLimit({
      maxSize: 64 * 1024,
      onError: (c) => oauthError(c, 413, 'invalid_request', 'request body too large'),
    }),
  );

  const abuseLimit = deps.abuseLimit;
  if (abuseLimit) {
    const addressOf =
      abuseLimit.addressOf ??
      ((c: Context) =>
        (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket
          ?.remoteAddress);
    const limited = async (c: Context, next: () => Promise<void>) => {
      const decision = await must(
        abuseLimit.rateLimiter.hit(
          `oauth:${addressOf(c) ?? 'unknown'}`,
          abuseLimit.perAddressPerMinute,
          60_000,
        ),
      );
      if (!decision.allowed) {
        const retryAfter = String(Math.max(1, Math.ceil(decision.resetMs / 1000)));
        return oauthError(c, 429, 'temporarily_unavailable', 'too many requests from this address', {
          'Retry-After': retryAfter,
        });
      }
      await next();
    };
    for (const path of ['/oauth/authorize/challenge', '/oauth/token', '/oauth/revoke', '/oauth/introspect']) {
      app.post(path, limited);
    }
  }

  app.onError((error, c) => {
    const storeDown = error instanceof StoreFailure;
    const fields = storeDown ? { errorCode: error.domain.code } : { error: error.name };
    (log?.error ?? log?.warn)?.call(log, { ...fields, path: c.req.path }, 'oauth request failed');
    if (c.req.path === '/oauth/authorize') {
      const nonce = randomId();
      return c.html(
        errorPage('Something went wrong', 'Please try again in a moment.', nonce),
        storeDown ? 503 : 500,
        pageSecurityHeaders(nonce),
      );
    }
    return storeDown
      ? oauthError(c, 503, 'temporarily_unavailable', 'the authorization server storage is unavailable')
      : oauthError(c, 500, 'server_error', 'unexpected error');
  });

  function oauthError(
    c: Context,
    status: ContentfulStatusCode,
    error: string,
    description: string,
    headers: Record<string, string> = {},
  ) {
    return c.json({ error, error_description: description }, status, { ...NO_STORE, ...headers });
  }

  function htmlError(c: Context, status: ContentfulStatusCode, title: string, detail: string) {
    const nonce = randomId();
    return c.html(errorPage(title, detail, nonce), status, pageSecurityHeaders(nonce));
  }

  async function readForm(c: Context): Promise<URLSearchParams | undefined> {
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) return undefined;
    return new URLSearchParams(await c.req.text());
  }

  async function checkAuthorizeRequest(params: URLSearchParams): Promise<AuthorizeCheck> {
    const repeated = repeatedParam(params, AUTHORIZE_PARAMS);
    const clientId = param(params, 'client_id');
    const client = clientId && !repeated ? await must(deps.store.clients.get(clientId)) : null;
    // Until the client and its redirect URI are known good, errors are shown here and never
    // redirected (RFC 6749 section 4.1.2.1): an open redirector would otherwise be one request away.
    if (!client) {
      return {
        kind: 'page-error',
        title: 'Unknown application',
        detail: repeated
          ? `the parameter ${repeated} was sent more than once`
          : 'client_id is missing or not registered',
      };
    }
    const redirectUri = param(params, 'redirect_uri');
    if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
      return {
        kind: 'page-error',
        title: 'Invalid redirect URI',
        detail: 'redirect_uri is missing or does not exactly match one registered for this application',
      };
    }
    const state = param(params, 'state');
    const fail = (error: string, description: string): AuthorizeCheck => ({
      kind: 'redirect-error',
      redirectUri,
      ...(state !== undefined ? { state } : {}),
      error,
      description,
    });
    if (param(params, 'response_type') !== 'code') {
      return fail('unsupported_response_type', 'only response_type=code is supported');
    }
    const codeChallenge = param(params, 'code_challenge');
    if (!codeChallenge) return fail('invalid_request', 'code_challenge is required (PKCE S256)');
    if (param(params, 'code_challenge_method') !== 'S256') {
      return fail('invalid_request', 'code_challenge_method must be S256');
    }
    if (!isS256Challenge(codeChallenge))
      return fail('invalid_request', 'code_challenge is not a S256 challenge');
    const requested = param(params, 'scope');
    const scope = requested === undefined ? ['read' as const] : parseScope(requested);
    if (!scope) return fail('invalid_scope', `scope must be made of: ${OAUTH_SCOPES.join(' ')}`);
    if (!scope.every((s) => client.scopes.includes(s))) {
      return fail('invalid_scope', 'the application may not request this scope');
    }
    return {
      kind: 'ok',
      client,
      redirectUri,
      scope,
      ...(state !== undefined ? { state } : {}),
      codeChallenge,
    };
  }

  function authorizeErrorRedirect(
    c: Context,
    check: Extract<AuthorizeCheck, { kind: 'redirect-error' }>,
    status: 302 | 303,
  ) {
    return c.redirect(
      withParams(check.redirectUri, {
        error: check.error,
        error_description: check.description,
        state: check.state,
        iss: issuer,
      }),
      status,
    );
  }

  type ClientAuth = { ok: true; client: OAuthClientRecord } | { ok: false; response: Response };

  /** RFC 6749 section 2.3: client_secret_basic, client_secret_post, or none for public clients. */
  async function authenticateClient(c: Context, form: URLSearchParams): Promise<ClientAuth> {
    const header = c.req.header('authorization');
    const basicChallenge: Record<string, string> = header
      ? { 'WWW-Authenticate': 'Basic realm="oauth", charset="UTF-8"' }
      : {};
    const invalidClient = (description: string): ClientAuth => ({
      ok: false,
      response: oauthError(c, 401, 'invalid_client', description, basicChallenge),
    });
    let clientId: string | undefined;
    let secret: string | undefined;
    let method: 'client_secret_basic' | 'client_secret_post' | 'none';
    if (header) {
      const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
      let decoded: string | undefined;
      try {
        decoded = match
          ? new TextDecoder('utf-8', { fatal: true }).decode(decodeBase64(match[1]!))
          : undefined;
      } catch {
        decoded = undefined;
      }
      const colon = decoded?.indexOf(':') ?? -1;
      if (!decoded || colon < 0) return invalidClient('malformed Basic credentials');
      // The id and secret are form-urlencoded before base64 (RFC 6749 section 2.3.1).
      const formDecode = (v: string) => {
        try {
          return decodeURIComponent(v.replace(/\+/g, ' '));
        } catch {
          return undefined;
        }
      };
      clientId = formDecode(decoded.slice(0, colon));
      secret = formDecode(decoded.slice(colon + 1));
      if (clientId === undefined || secret === undefined) return invalidClient('malformed Basic credentials');
      if (form.has('client_secret')) {
        return {
          ok: false,
          response: oauthError(c, 400, 'invalid_request', 'use one client authentication method'),
        };
      }
      const bodyId = param(form, 'client_id');
      if (bodyId !== undefined && bodyId !== clientId)
        return invalidClient('client_id does not match the credentials');
      method = 'client_secret_basic';
    } else {
      clientId = param(form, 'client_id');
      secret = param(form, 'client_secret');
      method = secret === undefined ? 'none' : 'client_secret_post';
    }
    if (!clientId) return invalidClient('client authentication is required');
    const client = await must(deps.store.clients.get(clientId));
    if (!client) return invalidClient('client authentication failed');
    if (client.type === 'confidential') {
      if (method === 'none' || !client.secretHash || !sameSecretHash(secret ?? '', client.secretHash)) {
        return invalidClient('client authentication failed');
      }
    } else if (method !== 'none') {
      return invalidClient('a public client authenticates with client_id only');
    }
    return { ok: true, client };
  }

  async function tokenRequestForm(c: Context): Promise<URLSearchParams | Response> {
    const form = await readForm(c);
    if (!form)
      return oauthError(c, 400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
    const repeated = repeatedParam(form);
    if (repeated)
      return oauthError(c, 400, 'invalid_request', `the parameter ${repeated} was sent more than once`);
    return form;
  }

  app.get('/.well-known/oauth-authorization-server', (c) =>
    c.json(
      {
        issuer,
        authorization_endpoint: endpoints.authorization,
        token_endpoint: endpoints.token,
        revocation_endpoint: endpoints.revocation,
        introspection_endpoint: endpoints.introspection,
        ...(adminTokenHash ? { registration_endpoint: endpoints.registration } : {}),
        scopes_supported: OAUTH_SCOPES,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        authorization_response_iss_parameter_supported: true,
      },
      200,
      { 'Cache-Control': 'public, max-age=300' },
    ),
  );

  app.get('/oauth/authorize', async (c) => {
    const params = new URL(c.req.url).searchParams;
    const check = await checkAuthorizeRequest(params);
    if (check.kind === 'page-error') return htmlError(c, 400, check.title, check.detail);
    if (check.kind === 'redirect-error') return authorizeErrorRedirect(c, check, 302);
    const echoed: Record<string, string> = {
      response_type: 'code',
      client_id: check.client.id,
      redirect_uri: check.redirectUri,
      scope: check.scope.join(' '),
      code_challenge: check.codeChallenge,
      code_challenge_method: 'S256',
      ...(check.state !== undefined ? { state: check.state } : {}),
    };
    const nonce = randomId();
    return c.html(
      consentPage({
        clientName: check.client.name,
        clientId: check.client.id,
        redirectOrigin: new URL(check.redirectUri).origin,
        scope: check.scope,
        params: echoed,
        formAction: endpoints.authorization,
        challengeUrl: endpoints.challenge,
        cspNonce: nonce,
      }),
      200,
      pageSecurityHeaders(nonce),
    );
  });

  app.post('/oauth/authorize/challenge', async (c) => {
    let body: { address?: unknown; client_id?: unknown; scope?: unknown };
    try {
      body = await c.req.json();
    } catch {
      return oauthError(c, 400, 'invalid_request', 'the body must be JSON');
    }
    const address = parsePublicKey(body?.address, 'address');
    if (address.isErr()) return oauthError(c, 400, 'invalid_request', address.error.message);
    const client =
      typeof body.client_id === 'string' ? await must(deps.store.clients.get(body.client_id)) : null;
    if (!client) return oauthError(c, 400, 'invalid_request', 'unknown client_id');
    const scope = parseScope(typeof body.scope === 'string' ? body.scope : undefined);
    if (!scope?.every((s) => client.scopes.includes(s))) {
      return oauthError(c, 400, 'invalid_scope', 'the application may not request this scope');
    }
    const now = deps.clock.now();
    const nonce = randomId();
    const issuedAt = now.toISOString();
    const expirationTime = new Date(now.getTime() + siwsTtlMs).toISOString();
    await must(deps.store.insertNonce({ nonce, expiresAt: new Date(now.getTime() + siwsTtlMs) }));
    const message = siwsMessage({
      domain: issuerUrl.host,
      address: address.value,
      statement: statementFor(client, scope),
      uri: endpoints.authorization,
      ...(deps.siwsChainId ? { chainId: deps.siwsChainId } : {}),
      nonce,
      issuedAt,
      expirationTime,
    });
    return c.json({ message, nonce, issuedAt, expirationTime }, 200, NO_STORE);
  });

  app.post('/oauth/authorize', async (c) => {
    const form = await readForm(c);
    if (!form) return htmlError(c, 400, 'Invalid request', 'the consent form was not submitted as a form');
    const check = await checkAuthorizeRequest(form);
    if (check.kind === 'page-error') return htmlError(c, 400, check.title, check.detail);
    if (check.kind === 'redirect-error') return authorizeErrorRedirect(c, check, 303);
    const decision = param(form, 'decision');
    if (decision === 'deny') {
      log?.info({ clientId: check.client.id }, 'authorization denied by the user');
      return authorizeErrorRedirect(
        c,
        {
          ...check,
          kind: 'redirect-error',
          error: 'access_denied',
          description: 'the user denied the request',
        },
        303,
      );
    }
    if (decision !== 'approve')
      return htmlError(c, 400, 'Invalid request', 'decision must be approve or deny');

    const signInFailed = (detail: string) =>
      htmlError(c, 400, 'Wallet sign-in failed', `${detail} Go back to the application and start again.`);
    const address = parsePublicKey(param(form, 'address'), 'address');
    if (address.isErr()) return signInFailed('The wallet address is not a Solana public key.');
    let signature: Uint8Array;
    try {
      signature = decodeBase64(param(form, 'signature') ?? '');
    } catch {
      return signInFailed('The signature is not valid base64.');
    }
    const nonce = param(form, 'nonce');
    const issuedAt = param(form, 'issued_at');
    const expirationTime = param(form, 'expiration_time');
    const issued = issuedAt ? Date.parse(issuedAt) : Number.NaN;
    const expires = expirationTime ? Date.parse(expirationTime) : Number.NaN;
    const now = deps.clock.now();
    if (
      !nonce ||
      !issuedAt ||
      !expirationTime ||
      Number.isNaN(issued) ||
      Number.isNaN(expires) ||
      new Date(issued).toISOString() !== issuedAt ||
      new Date(expires).toISOString() !== expirationTime
    ) {
      return signInFailed('The sign-in message is incomplete.');
    }
    if (issued > now.getTime() + CLOCK_SKEW_MS || expires <= now.getTime() || expires - issued > siwsTtlMs) {
      return signInFailed('The sign-in message has expired.');
    }
    // Consumed before the signature is checked: whatever the outcome, a nonce signs in at most once.
    if (!(await must(deps.store.consumeNonce(nonce, now)))) {
      return signInFailed('This sign-in request expired or was already used.');
    }
    const message = siwsMessage({
      domain: issuerUrl.host,
      address: address.value,
      statement: statementFor(check.client, check.scope),
      uri: endpoints.authorization,
      ...(deps.siwsChainId ? { chainId: deps.siwsChainId } : {}),
      nonce,
      issuedAt,
      expirationTime,
    });
    if (!(await verifyWalletSignature(address.value, message, signature))) {
      log?.warn({ clientId: check.client.id, subject: address.value }, 'wallet signature rejected');
      return signInFailed('The wallet signature does not match the sign-in message.');
    }

    const code = randomSecret(SECRET_PREFIX.code);
    const grantId = randomId('grant_');
    await must(
      deps.store.insertCode({
        codeHash: hashSecret(code),
        clientId: check.client.id,
        redirectUri: check.redirectUri,
        scope: check.scope,
        subject: address.value,
        codeChallenge: check.codeChallenge,
        grantId,
        expiresAt: new Date(now.getTime() + codeTtlSec * 1000),
        createdAt: now,
      }),
    );
    log?.info(
      { clientId: check.client.id, subject: address.value, grantId, scope: check.scope.join(' ') },
      'authorization code issued',
    );
    return c.redirect(withParams(check.redirectUri, { code, state: check.state, iss: issuer }), 303);
  });

  app.post('/oauth/token', async (c) => {
    const form = await tokenRequestForm(c);
    if (form instanceof Response) return form;
    const auth = await authenticateClient(c, form);
    if (!auth.ok) return auth.response;
    const client = auth.client;
    const now = deps.clock.now();
    const grantType = param(form, 'grant_type');

    const tokenResponse = (tokens: ReturnType<typeof mintTokenPair>, scope: readonly OAuthScope[]) =>
      c.json(
        {
          access_token: tokens.accessToken,
          token_type: 'Bearer',
          expires_in: deps.accessTokenTtlSec,
          refresh_token: tokens.refreshToken,
          scope: scope.join(' '),
        },
        200,
        NO_STORE,
      );

    if (grantType === 'authorization_code') {
      const code = param(form, 'code');
      const redirectUri = param(form, 'redirect_uri');
      const verifier = param(form, 'code_verifier');
      if (!code) return oauthError(c, 400, 'invalid_request', 'code is required');
      if (!redirectUri) return oauthError(c, 400, 'invalid_request', 'redirect_uri is required');
      if (!verifier) return oauthError(c, 400, 'invalid_request', 'code_verifier is required (PKCE)');
      const consumed = await must(deps.store.consumeCode(hashSecret(code), now));
      if (!consumed) return oauthError(c, 400, 'invalid_grant', 'the authorization code is invalid');
      const record = consumed.code;
      if (consumed.state === 'replayed') {
        // RFC 6749 section 4.1.2 / RFC 9700 section 4.5: a second use revokes what the first issued.
        await must(deps.store.revokeGrant(record.grantId, now));
        log?.warn(
          { clientId: client.id, grantId: record.grantId },
          'authorization code replayed; grant revoked',
        );
        return oauthError(c, 400, 'invalid_grant', 'the authorization code was already used');
      }
      if (record.clientId !== client.id) {
        return oauthError(c, 400, 'invalid_grant', 'the authorization code was issued to another client');
      }
      if (record.expiresAt.getTime() <= now.getTime()) {
        return oauthError(c, 400, 'invalid_grant', 'the authorization code has expired');
      }
      if (record.redirectUri !== redirectUri) {
        return oauthError(c, 400, 'invalid_grant', 'redirect_uri does not match the authorization request');
      }
      if (!isCodeVerifier(verifier) || !verifyS256(verifier, record.codeChallenge)) {
        return oauthError(c, 400, 'invalid_grant', 'code_verifier does not match the code_challenge');
      }
      const tokens = mintTokenPair({
        grantId: record.grantId,
        clientId: client.id,
        subject: record.subject,
        accessScope: record.scope,
        refreshScope: record.scope,
        now,
        lifetimes,
      });
      await must(deps.store.issueTokens(tokens.records));
      log?.info({ clientId: client.id, subject: record.subject, grantId: record.grantId }, 'tokens issued');
      return tokenResponse(tokens, record.scope);
    }

    if (grantType === 'refresh_token') {
      const presented = param(form, 'refresh_token');
      if (!presented) return oauthError(c, 400, 'invalid_request', 'refresh_token is required');
      const hash = hashSecret(presented);
      const stored = await must(deps.store.findToken(hash));
      if (stored?.kind !== 'refresh' || stored.clientId !== client.id) {
        return oauthError(c, 400, 'invalid_grant', 'the refresh token is invalid');
      }
      const reuse = async () => {
        await must(deps.store.revokeGrant(stored.grantId, now));
        log?.warn({ clientId: client.id, grantId: stored.grantId }, 'refresh token reused; grant revoked');
        return oauthError(c, 400, 'invalid_grant', 'the refresh token is invalid');
      };
      if (stored.rotatedAt && !stored.revokedAt) return reuse();
      if (stored.revokedAt || stored.expiresAt.getTime() <= now.getTime()) {
        return oauthError(c, 400, 'invalid_grant', 'the refresh token is invalid');
      }
      const requested = param(form, 'scope');
      const scope = requested === undefined ? [...stored.scope] : parseScope(requested);
      // RFC 6749 section 6: a refresh may narrow the scope, never widen it.
      if (!scope?.every((s) => stored.scope.includes(s))) {
        return oauthError(
          c,
          400,
          'invalid_scope',
          'the requested scope exceeds the scope originally granted',
        );
      }
      const tokens = mintTokenPair({
        grantId: stored.grantId,
        clientId: client.id,
        subject: stored.subject,
        accessScope: scope,
        refreshScope: stored.scope,
        now,
        lifetimes,
      });
      const rotation = await must(deps.store.rotateRefreshToken(hash, tokens.records, now));
      if (rotation.state === 'reused') return reuse();
      if (rotation.state === 'inactive')
        return oauthError(c, 400, 'invalid_grant', 'the refresh token is invalid');
      log?.info({ clientId: client.id, grantId: stored.grantId }, 'refresh token rotated');
      return tokenResponse(tokens, scope);
    }

    if (grantType === undefined) return oauthError(c, 400, 'invalid_request', 'grant_type is required');
    return oauthError(
      c,
      400,
      'unsupported_grant_type',
      'grant_type must be authorization_code or refresh_token',
    );
  });

  app.post('/oauth/revoke', async (c) => {
    const form = await tokenRequestForm(c);
    if (form instanceof Response) return form;
    const auth = await authenticateClient(c, form);
    if (!auth.ok) return auth.response;
    const presented = param(form, 'token');
    if (!presented) return oauthError(c, 400, 'invalid_request', 'token is required');
    const now = deps.clock.now();
    const hash = hashSecret(presented);
    const stored = await must(deps.store.findToken(hash));
    // RFC 7009 section 2.2: an unknown or already invalid token is not an error.
    if (!stored) return c.body(null, 200, NO_STORE);
    if (stored.clientId !== auth.client.id) {
      // RFC 7009 section 2.1: a client may only revoke its own tokens; the request is refused.
      return oauthError(c, 400, 'unauthorized_client', 'the token was not issued to this client');
    }
    if (stored.kind === 'refresh') {
      // RFC 7009 section 2.1: revoking a refresh token also ends the access tokens of its grant.
      await must(deps.store.revokeGrant(stored.grantId, now));
    } else {
      await must(deps.store.revokeToken(hash, now));
    }
    log?.info({ clientId: auth.client.id, grantId: stored.grantId, kind: stored.kind }, 'token revoked');
    return c.body(null, 200, NO_STORE);
  });

  app.post('/oauth/introspect', async (c) => {
    const form = await tokenRequestForm(c);
    if (form instanceof Response) return form;
    const auth = await authenticateClient(c, form);
    if (!auth.ok) return auth.response;
    if (auth.client.type !== 'confidential') {
      return oauthError(c, 401, 'invalid_client', 'introspection requires a confidential client');
    }
    const presented = param(form, 'token');
    if (!presented) return oauthError(c, 400, 'invalid_request', 'token is required');
    const now = deps.clock.now();
    const stored = await must(deps.store.findToken(hashSecret(presented)));
    // RFC 7662 section 2.2: anything the caller may not see is simply inactive, so the endpoint
    // cannot be used to probe other clients' tokens.
    if (!stored || stored.clientId !== auth.client.id || !isActive(stored, now)) {
      return c.json({ active: false }, 200, NO_STORE);
    }
    return c.json(
      {
        active: true,
        scope: stored.scope.join(' '),
        client_id: stored.clientId,
        sub: stored.subject,
        ...(stored.kind === 'access' ? { token_type: 'Bearer' } : {}),
        exp: Math.floor(stored.expiresAt.getTime() / 1000),
        iat: Math.floor(stored.createdAt.getTime() / 1000),
        iss: issuer,
      },
      200,
      NO_STORE,
    );
  });

  app.post('/oauth/clients', async (c) => {
    if (!adminTokenHash)
      return c.json({ error: 'not_found', error_description: 'registration is disabled' }, 404);
    const header = c.req.header('authorization') ?? '';
    const presented = /^Bearer (\S+)$/i.exec(header.trim())?.[1];
    if (!presented || !sameSecretHash(presented, adminTokenHash)) {
      return oauthError(c, 401, 'invalid_token', 'an admin bearer token is required', {
        'WWW-Authenticate': 'Bearer realm="oauth-admin"',
      });
    }
    let body: Record<string, unknown>;
    try {
      body = await c.req.json();
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not an object');
    } catch {
      return oauthError(c, 400, 'invalid_client_metadata', 'the body must be a JSON object');
    }
    const method = body.token_endpoint_auth_method ?? 'client_secret_basic';
    if (method !== 'client_secret_basic' && method !== 'client_secret_post' && method !== 'none') {
      return oauthError(c, 400, 'invalid_client_metadata', 'unsupported token_endpoint_auth_method');
    }
    const uris = body.redirect_uris;
    if (!Array.isArray(uris) || !uris.every((u) => typeof u === 'string')) {
      return oauthError(c, 400, 'invalid_redirect_uri', 'redirect_uris must be an array of URLs');
    }
    if (typeof body.client_name !== 'string') {
      return oauthError(c, 400, 'invalid_client_metadata', 'client_name is required');
    }
    let scopes: OAuthScope[] | undefined;
    if (body.scope !== undefined) {
      scopes = typeof body.scope === 'string' ? parseScope(body.scope) : undefined;
      if (!scopes)
        return oauthError(
          c,
          400,
          'invalid_client_metadata',
          `scope must be made of: ${OAUTH_SCOPES.join(' ')}`,
        );
    }
    if (body.webhook_url !== undefined && typeof body.webhook_url !== 'string') {
      return oauthError(c, 400, 'invalid_client_metadata', 'webhook_url must be a URL');
    }
    const registered = await registerClient(deps, {
      name: body.client_name,
      redirectUris: uris as string[],
      type: method === 'none' ? 'public' : 'confidential',
      ...(scopes ? { scopes } : {}),
      ...(typeof body.webhook_url === 'string' ? { webhookUrl: body.webhook_url } : {}),
    });
    if (registered.isErr()) {
      if (registered.error.code !== 'INVALID_INPUT') throw new StoreFailure(registered.error);
      const error = /redirect URI/.test(registered.error.message)
        ? 'invalid_redirect_uri'
        : 'invalid_client_metadata';
      return oauthError(c, 400, error, registered.error.message);
    }
    const { client, clientSecret } = registered.value;
    log?.info({ clientId: client.id, type: client.type }, 'oauth client registered');
    return c.json(
      {
        client_id: client.id,
        ...(clientSecret ? { client_secret: clientSecret, client_secret_expires_at: 0 } : {}),
        client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
        client_name: client.name,
        redirect_uris: client.redirectUris,
        token_endpoint_auth_method: method,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: client.scopes.join(' '),
        ...(client.webhookUrl ? { webhook_url: client.webhookUrl } : {}),
      },
      201,
      NO_STORE,
    );
  });

  app.get('/oauth/demo/callback', (c) => {
    const query = new URL(c.req.url).searchParams;
    const nonce = randomId();
    const code = param(query, 'code');
    const state = param(query, 'state');
    const error = param(query, 'error');
    return c.html(
      demoCallbackPage({
        ...(code ? { code } : {}),
        ...(state ? { state } : {}),
        ...(error ? { error } : {}),
        tokenUrl: endpoints.token,
        redirectUri: `${issuer}/oauth/demo/callback`,
        cspNonce: nonce,
      }),
      200,
      pageSecurityHeaders(nonce),
    );
  });

  return app;
}
