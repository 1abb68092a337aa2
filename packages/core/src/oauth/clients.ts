import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from 'neverthrow';
import { type DomainError, domainError } from '../errors.js';
import type { ClockPort } from '../ports/clock.js';
import type { OAuthClientRecord, OAuthClientType, OAuthScope, OAuthStore } from '../ports/oauth.js';
import type { OutboundUrlPolicy } from '../ports/outbound.js';
import { isOAuthScope, OAUTH_SCOPES } from './params.js';
import { hashSecret, randomId, randomSecret, SECRET_PREFIX } from './secrets.js';

export interface ClientRegistration {
  readonly name: string;
  readonly redirectUris: readonly string[];
  /** `confidential` clients authenticate with a secret (basic or post); `public` ones with PKCE alone. */
  readonly type: OAuthClientType;
  /** Defaults to every scope. */
  readonly scopes?: readonly OAuthScope[];
  readonly webhookUrl?: string;
  /** Fixed id (the demo client); a random one otherwise. */
  readonly clientId?: string;
}

export interface RegisteredClient {
  readonly client: OAuthClientRecord;
  /** Shown once, never stored: only its hash is. Absent for public clients. */
  readonly clientSecret?: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * RFC 9700 section 2.1 and RFC 8252: absolute, no fragment, https, or plain http only on a
 * loopback host (native apps and local development).
 */
export function checkRedirectUri(value: string): Result<string, DomainError> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return err(domainError('INVALID_INPUT', 'a redirect URI must be an absolute URL'));
  }
  if (url.hash || value.includes('#')) {
    return err(domainError('INVALID_INPUT', 'a redirect URI must not contain a fragment'));
  }
  if (url.username || url.password) {
    return err(domainError('INVALID_INPUT', 'a redirect URI must not contain credentials'));
  }
  if (url.protocol === 'https:') return ok(value);
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return ok(value);
  return err(domainError('INVALID_INPUT', 'a redirect URI must use https, or http on a loopback host'));
}

export function checkRegistration(input: ClientRegistration): Result<ClientRegistration, DomainError> {
  const name = input.name.trim();
  // The name is shown on the consent page and signed inside the SIWS statement, one line of text.
  if (name.length === 0 || name.length > 80 || /[\p{Cc}]/u.test(name)) {
    return err(
      domainError('INVALID_INPUT', 'client name must be 1 to 80 characters without control characters'),
    );
  }
  if (input.redirectUris.length === 0 || input.redirectUris.length > 10) {
    return err(domainError('INVALID_INPUT', 'between 1 and 10 redirect URIs are required'));
  }
  for (const uri of input.redirectUris) {
    const checked = checkRedirectUri(uri);
    if (checked.isErr()) return err(checked.error);
  }
  if (input.type !== 'confidential' && input.type !== 'public') {
    return err(domainError('INVALID_INPUT', 'client type must be confidential or public'));
  }
  const scopes = input.scopes ?? OAUTH_SCOPES;
  if (scopes.length === 0 || !scopes.every((s) => isOAuthScope(s))) {
    return err(
      domainError('INVALID_INPUT', `scopes must be a non-empty subset of: ${OAUTH_SCOPES.join(' ')}`),
    );
  }
  if (input.webhookUrl !== undefined) {
    const checked = checkRedirectUri(input.webhookUrl);
    if (checked.isErr())
      return err(domainError('INVALID_INPUT', 'webhook URL must use https (or http on loopback)'));
  }
  if (input.clientId !== undefined && !/^[A-Za-z0-9._-]{3,64}$/.test(input.clientId)) {
    return err(domainError('INVALID_INPUT', 'client id must be 3 to 64 characters of A-Z a-z 0-9 . _ -'));
  }
  return ok({ ...input, name, scopes: [...new Set(scopes)] });
}

/**
 * Creates (or, for a fixed id, replaces) a client and returns its one-time secret. A webhook URL
 * must also pass `webhookUrls` (the SSRF guard: what its host resolves to) when one is given.
 */
export function registerClient(
  deps: { store: OAuthStore; clock: ClockPort; webhookUrls?: OutboundUrlPolicy },
  input: ClientRegistration,
): ResultAsync<RegisteredClient, DomainError> {
  const checked = checkRegistration(input);
  if (checked.isErr()) return errAsync(checked.error);
  const registration = checked.value;
  const webhookUrl = registration.webhookUrl;
  const reachable =
    webhookUrl !== undefined && deps.webhookUrls ? deps.webhookUrls.check(webhookUrl) : okAsync(undefined);
  return reachable.andThen(() => storeClient(deps, registration));
}

function storeClient(
  deps: { store: OAuthStore; clock: ClockPort },
  registration: ClientRegistration,
): ResultAsync<RegisteredClient, DomainError> {
  const clientSecret =
    registration.type === 'confidential' ? randomSecret(SECRET_PREFIX.clientSecret) : undefined;
  const client: OAuthClientRecord = {
    id: registration.clientId ?? randomId('client_'),
    name: registration.name,
    type: registration.type,
    ...(clientSecret ? { secretHash: hashSecret(clientSecret) } : {}),
    redirectUris: [...registration.redirectUris],
    scopes: [...(registration.scopes ?? OAUTH_SCOPES)],
    ...(registration.webhookUrl ? { webhookUrl: registration.webhookUrl } : {}),
    createdAt: deps.clock.now(),
  };
  return deps.store.clients.upsert(client).map(() => ({ client, ...(clientSecret ? { clientSecret } : {}) }));
}
