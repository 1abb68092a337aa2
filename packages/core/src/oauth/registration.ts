import { err, errAsync, ok, type Result, type ResultAsync } from 'neverthrow';
import type { OAuthScope } from '../ports/oauth.js';
import { registerClient } from './clients.js';
import { type OAuthError, type OAuthFailure, oauthError } from './errors.js';
import { OAUTH_SCOPES, parseJsonBody, parseScope } from './params.js';
import { sameSecretHash } from './secrets.js';
import type { OAuthDeps } from './settings.js';

export interface RegistrationRequest {
  /** The Authorization header, which must carry the admin token as a bearer token. */
  readonly authorization?: string;
  /** The body as text; undefined when it could not be read. */
  readonly body: string | undefined;
}

/** RFC 7591 section 3.2.1. */
export interface RegistrationResponse {
  readonly client_id: string;
  readonly client_secret?: string;
  readonly client_secret_expires_at?: 0;
  readonly client_id_issued_at: number;
  readonly client_name: string;
  readonly redirect_uris: readonly string[];
  readonly token_endpoint_auth_method: 'client_secret_basic' | 'client_secret_post' | 'none';
  readonly grant_types: readonly ['authorization_code', 'refresh_token'];
  readonly response_types: readonly ['code'];
  readonly scope: string;
  readonly webhook_url?: string;
}

/** RFC 7591 section 3: the initial access token is the operator's admin token, sent per RFC 6750 2.1. */
function authorizeAdmin(authorization: string | undefined, adminTokenHash: string): Result<void, OAuthError> {
  const presented = /^Bearer (\S+)$/i.exec((authorization ?? '').trim())?.[1];
  if (!presented || !sameSecretHash(presented, adminTokenHash)) {
    return err(oauthError('invalid_token', 'an admin bearer token is required', { challenge: 'bearer' }));
  }
  return ok(undefined);
}

function jsonObject(text: string | undefined): Record<string, unknown> | undefined {
  const body = parseJsonBody(text)?.value;
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}

const metadataError = (description: string) => oauthError('invalid_client_metadata', description);

/**
 * RFC 7591 section 3.1 / 3.2: registers a client from its metadata (`client_name`,
 * `redirect_uris`, `token_endpoint_auth_method`, `scope`, and our `webhook_url`), answering the
 * section 3.2.2 errors `invalid_redirect_uri` and `invalid_client_metadata`. The secret is in the
 * response once and only its hash is stored.
 */
export function registerClientMetadata(
  deps: OAuthDeps,
  adminTokenHash: string,
  request: RegistrationRequest,
): ResultAsync<RegistrationResponse, OAuthFailure> {
  const admin = authorizeAdmin(request.authorization, adminTokenHash);
  if (admin.isErr()) return errAsync(admin.error);
  const body = jsonObject(request.body);
  if (!body) return errAsync(metadataError('the body must be a JSON object'));
  const method = body.token_endpoint_auth_method ?? 'client_secret_basic';
  if (method !== 'client_secret_basic' && method !== 'client_secret_post' && method !== 'none') {
    return errAsync(metadataError('unsupported token_endpoint_auth_method'));
  }
  const uris = body.redirect_uris;
  if (!Array.isArray(uris) || !uris.every((u): u is string => typeof u === 'string')) {
    return errAsync(oauthError('invalid_redirect_uri', 'redirect_uris must be an array of URLs'));
  }
  if (typeof body.client_name !== 'string') return errAsync(metadataError('client_name is required'));
  let scopes: OAuthScope[] | undefined;
  if (body.scope !== undefined) {
    scopes = typeof body.scope === 'string' ? parseScope(body.scope) : undefined;
    if (!scopes) return errAsync(metadataError(`scope must be made of: ${OAUTH_SCOPES.join(' ')}`));
  }
  if (body.webhook_url !== undefined && typeof body.webhook_url !== 'string') {
    return errAsync(metadataError('webhook_url must be a URL'));
  }
  return registerClient(deps, {
    name: body.client_name,
    redirectUris: uris,
    type: method === 'none' ? 'public' : 'confidential',
    ...(scopes ? { scopes } : {}),
    ...(typeof body.webhook_url === 'string' ? { webhookUrl: body.webhook_url } : {}),
  })
    .mapErr((error): OAuthFailure => {
      if (error.code !== 'INVALID_INPUT') return error;
      const code = /redirect URI/.test(error.message) ? 'invalid_redirect_uri' : 'invalid_client_metadata';
      return oauthError(code, error.message);
    })
    .map(({ client, clientSecret }) => {
      deps.logger?.info({ clientId: client.id, type: client.type }, 'oauth client registered');
      return {
        client_id: client.id,
        ...(clientSecret ? { client_secret: clientSecret, client_secret_expires_at: 0 as const } : {}),
        client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
        client_name: client.name,
        redirect_uris: client.redirectUris,
        token_endpoint_auth_method: method,
        grant_types: ['authorization_code', 'refresh_token'] as const,
        response_types: ['code'] as const,
        scope: client.scopes.join(' '),
        ...(client.webhookUrl ? { webhook_url: client.webhookUrl } : {}),
      };
    });
}
