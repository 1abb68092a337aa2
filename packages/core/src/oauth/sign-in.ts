import { sha256 } from '@oslojs/crypto/sha2';
import { decodeBase64, encodeBase64urlNoPadding } from '@oslojs/encoding';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { type PublicKey, parsePublicKey } from '../domain/public-key.js';
import type { OAuthClientRecord, OAuthScope } from '../ports/oauth.js';
import {
  AUTHORIZE_PARAMS,
  type AuthorizationFailure,
  type AuthorizationRequest,
  errorRedirect,
  isAuthorizationPageError,
  isAuthorizationRedirect,
  pageError,
  validateAuthorizationRequest,
} from './authorize.js';
import { type OAuthFailure, oauthError } from './errors.js';
import { param, parseJsonBody, parseScope, withParams } from './params.js';
import { hashSecret, randomId, randomSecret, SECRET_PREFIX, utf8 } from './secrets.js';
import type { OAuthDeps, OAuthSettings } from './settings.js';
import { siwsMessage, verifyWalletSignature, type WalletSignatureVerifier } from './siws.js';

export interface SignInDeps extends OAuthDeps {
  /** Default: Ed25519 through Web Crypto. */
  readonly verifySignature?: WalletSignatureVerifier;
}

/** What the consent page asks the wallet to sign (SIWS), with the single-use nonce it embeds. */
export interface SignInChallenge {
  readonly message: string;
  readonly nonce: string;
  readonly issuedAt: string;
  readonly expirationTime: string;
}

/** How far a wallet's clock may run ahead of ours when it stamps `Issued At`. */
const CLOCK_SKEW_MS = 60_000;

/** The statement is signed, so the wallet owner approves this client and this scope, not just a login. */
function statementFor(client: OAuthClientRecord, scope: readonly OAuthScope[]): string {
  return `Approve ${client.name} (client ${client.id}) to use this wallet for swaps with scope: ${scope.join(' ')}`;
}

/**
 * Names one authorization request inside the signed message: a digest of every parameter the code
 * will be bound to (client, redirect URI, scope, PKCE challenge, state), so a wallet signature
 * given for one request cannot complete another, even of the same client and scope.
 */
export function authorizationRequestId(request: AuthorizationRequest): string {
  const bound = [
    request.client.id,
    request.redirectUri,
    request.scope.join(' '),
    request.codeChallenge,
    request.state ?? null,
  ];
  return encodeBase64urlNoPadding(sha256(utf8.encode(JSON.stringify(bound))));
}

function messageFor(
  settings: OAuthSettings,
  fields: { address: string; request: AuthorizationRequest } & Omit<SignInChallenge, 'message'>,
): string {
  return siwsMessage({
    domain: settings.domain,
    address: fields.address,
    statement: statementFor(fields.request.client, fields.request.scope),
    uri: settings.endpoints.authorization,
    ...(settings.siwsChainId ? { chainId: settings.siwsChainId } : {}),
    nonce: fields.nonce,
    issuedAt: fields.issuedAt,
    expirationTime: fields.expirationTime,
    requestId: authorizationRequestId(fields.request),
  });
}

/** The authorization request a challenge body names, checked exactly as the consent page's GET was. */
function requestOfChallenge(
  deps: OAuthDeps,
  settings: OAuthSettings,
  fields: Record<string, unknown>,
): ResultAsync<AuthorizationRequest, OAuthFailure> {
  const params = new URLSearchParams();
  for (const name of AUTHORIZE_PARAMS) {
    const value = fields[name];
    if (typeof value === 'string') params.set(name, value);
  }
  return validateAuthorizationRequest(deps, settings, params).mapErr((failure): OAuthFailure => {
    if (isAuthorizationPageError(failure)) return oauthError('invalid_request', failure.detail);
    if (isAuthorizationRedirect(failure)) {
      const answer = new URL(failure.location).searchParams;
      const code = answer.get('error') === 'invalid_scope' ? 'invalid_scope' : 'invalid_request';
      return oauthError(code, answer.get('error_description') ?? 'invalid authorization request');
    }
    return failure;
  });
}

/**
 * The resource owner authenticates with their wallet (RFC 6749 section 3.1 leaves the method to
 * the server): a Sign-In With Solana message for this client and scope, naming this authorization
 * request (`Request ID`), with a fresh nonce stored so it can be redeemed once. `body` is the JSON
 * text `{address, client_id, scope, redirect_uri, code_challenge, code_challenge_method,
 * response_type, state?}`: the consent form's own fields.
 */
export function issueSignInChallenge(
  deps: OAuthDeps,
  settings: OAuthSettings,
  body: string | undefined,
): ResultAsync<SignInChallenge, OAuthFailure> {
  const parsed = parseJsonBody(body);
  if (!parsed) return errAsync(oauthError('invalid_request', 'the body must be JSON'));
  const fields =
    typeof parsed.value === 'object' && parsed.value !== null
      ? (parsed.value as Record<string, unknown>)
      : {};
  const address = parsePublicKey(fields.address, 'address');
  if (address.isErr()) return errAsync(oauthError('invalid_request', address.error.message));
  const clientId = fields.client_id;
  const found = typeof clientId === 'string' ? deps.store.clients.get(clientId) : okAsync(null);
  return found.andThen((client) => {
    if (!client) return errAsync(oauthError('invalid_request', 'unknown client_id'));
    const scope = parseScope(typeof fields.scope === 'string' ? fields.scope : undefined);
    if (!scope?.every((s) => client.scopes.includes(s))) {
      return errAsync(oauthError('invalid_scope', 'the application may not request this scope'));
    }
    return requestOfChallenge(deps, settings, fields).andThen((request) => {
      const now = deps.clock.now();
      const expiresAt = new Date(now.getTime() + settings.siwsTtlMs);
      const challenge = {
        nonce: randomId(),
        issuedAt: now.toISOString(),
        expirationTime: expiresAt.toISOString(),
      };
      return deps.store.insertNonce({ nonce: challenge.nonce, expiresAt }).map(() => ({
        message: messageFor(settings, { address: address.value, request, ...challenge }),
        ...challenge,
      }));
    });
  });
}

const signInFailed = (detail: string) =>
  pageError('Wallet sign-in failed', `${detail} Go back to the application and start again.`);

function decodeSignature(value: string): Uint8Array | undefined {
  try {
    return decodeBase64(value);
  } catch {
    return undefined;
  }
}

/** A string that parses as a date and is already in the ISO form we issued, so it signs identically. */
function isoTime(value: string | undefined): number | undefined {
  const time = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(time) || new Date(time).toISOString() !== value ? undefined : time;
}

/**
 * The SIWS check of the consent form: well-formed fields, a fresh message, a nonce redeemed once
 * (before the signature is checked, so whatever the outcome it signs in at most once), and the
 * wallet's Ed25519 signature over exactly the message the challenge described.
 */
function signIn(
  deps: SignInDeps,
  settings: OAuthSettings,
  request: AuthorizationRequest,
  form: URLSearchParams,
  now: Date,
): ResultAsync<PublicKey, AuthorizationFailure> {
  const address = parsePublicKey(param(form, 'address'), 'address');
  if (address.isErr()) return errAsync(signInFailed('The wallet address is not a Solana public key.'));
  const signature = decodeSignature(param(form, 'signature') ?? '');
  if (!signature) return errAsync(signInFailed('The signature is not valid base64.'));
  const nonce = param(form, 'nonce');
  const issuedAt = param(form, 'issued_at');
  const expirationTime = param(form, 'expiration_time');
  const issued = isoTime(issuedAt);
  const expires = isoTime(expirationTime);
  if (!nonce || !issuedAt || !expirationTime || issued === undefined || expires === undefined) {
    return errAsync(signInFailed('The sign-in message is incomplete.'));
  }
  const t = now.getTime();
  if (issued > t + CLOCK_SKEW_MS || expires <= t || expires - issued > settings.siwsTtlMs) {
    return errAsync(signInFailed('The sign-in message has expired.'));
  }
  const message = messageFor(settings, {
    address: address.value,
    request,
    nonce,
    issuedAt,
    expirationTime,
  });
  const verify = deps.verifySignature ?? verifyWalletSignature;
  return deps.store.consumeNonce(nonce, now).andThen((fresh) => {
    if (!fresh) return errAsync(signInFailed('This sign-in request expired or was already used.'));
    return ResultAsync.fromSafePromise(verify(address.value, message, signature)).andThen((valid) => {
      if (valid) return okAsync(address.value);
      deps.logger?.warn({ clientId: request.client.id, subject: address.value }, 'wallet signature rejected');
      return errAsync(signInFailed('The wallet signature does not match the sign-in message.'));
    });
  });
}

/**
 * RFC 6749 section 4.1.2: the consent form's answer. `deny` sends `access_denied` back to the
 * client (4.1.2.1); `approve` with a valid wallet sign-in issues a single-use code, valid at most
 * `codeTtlSec`, bound to the client, redirect URI, scope, wallet and PKCE challenge, and resolves
 * to the redirect carrying it (with RFC 9207 `iss`). `form` is undefined when the body was not
 * form-encoded.
 */
export function completeAuthorization(
  deps: SignInDeps,
  settings: OAuthSettings,
  form: URLSearchParams | undefined,
): ResultAsync<string, AuthorizationFailure> {
  if (!form) return errAsync(pageError('Invalid request', 'the consent form was not submitted as a form'));
  return validateAuthorizationRequest(deps, settings, form).andThen((request) => {
    const decision = param(form, 'decision');
    if (decision === 'deny') {
      deps.logger?.info({ clientId: request.client.id }, 'authorization denied by the user');
      return errAsync(errorRedirect(settings, request, 'access_denied', 'the user denied the request'));
    }
    if (decision !== 'approve')
      return errAsync(pageError('Invalid request', 'decision must be approve or deny'));
    const now = deps.clock.now();
    return signIn(deps, settings, request, form, now).andThen((subject) => {
      const code = randomSecret(SECRET_PREFIX.code);
      const grantId = randomId('grant_');
      return deps.store
        .insertCode({
          codeHash: hashSecret(code),
          clientId: request.client.id,
          redirectUri: request.redirectUri,
          scope: request.scope,
          subject,
          codeChallenge: request.codeChallenge,
          grantId,
          expiresAt: new Date(now.getTime() + settings.codeTtlSec * 1000),
          createdAt: now,
        })
        .map(() => {
          deps.logger?.info(
            { clientId: request.client.id, subject, grantId, scope: request.scope.join(' ') },
            'authorization code issued',
          );
          return withParams(request.redirectUri, { code, state: request.state, iss: settings.issuer });
        });
    });
  });
}
