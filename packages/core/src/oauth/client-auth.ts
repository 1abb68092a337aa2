import { decodeBase64 } from '@oslojs/encoding';
import { err, errAsync, ok, type Result, type ResultAsync } from 'neverthrow';
import type { OAuthClientRecord, OAuthStore, TokenEndpointAuthMethod } from '../ports/oauth.js';
import { type OAuthError, type OAuthFailure, oauthError } from './errors.js';
import { param } from './params.js';
import { sameSecretHash } from './secrets.js';

export interface ClientAuthenticationRequest {
  /** The Authorization header, if any. */
  readonly authorization?: string;
  /** The request body of the token, revocation or introspection endpoint. */
  readonly form: URLSearchParams;
}

interface PresentedCredentials {
  readonly clientId: string;
  readonly secret: string | undefined;
  readonly method: TokenEndpointAuthMethod;
}

/** RFC 6749 section 2.3.1: the id and secret are form-urlencoded before base64. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function decodeBasic(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  let decoded: string | undefined;
  try {
    decoded = match ? new TextDecoder('utf-8', { fatal: true }).decode(decodeBase64(match[1]!)) : undefined;
  } catch {
    decoded = undefined;
  }
  const colon = decoded?.indexOf(':') ?? -1;
  if (!decoded || colon < 0) return undefined;
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return id === undefined || secret === undefined ? undefined : { id, secret };
}

/** Which credentials the request presents, before any of them is checked. */
function presentedCredentials(
  request: ClientAuthenticationRequest,
): Result<PresentedCredentials, OAuthError> {
  const { authorization, form } = request;
  // RFC 6749 section 5.2: a client that tried the Authorization header gets a matching challenge.
  const invalidClient = (description: string) =>
    oauthError('invalid_client', description, authorization ? { challenge: 'basic' } : {});
  if (authorization) {
    const basic = decodeBasic(authorization);
    if (!basic) return err(invalidClient('malformed Basic credentials'));
    // RFC 6749 section 2.3: a client must not use more than one authentication method per request.
    if (form.has('client_secret'))
      return err(oauthError('invalid_request', 'use one client authentication method'));
    const bodyId = param(form, 'client_id');
    if (bodyId !== undefined && bodyId !== basic.id)
      return err(invalidClient('client_id does not match the credentials'));
    if (!basic.id) return err(invalidClient('client authentication is required'));
    return ok({ clientId: basic.id, secret: basic.secret, method: 'client_secret_basic' });
  }
  const clientId = param(form, 'client_id');
  const secret = param(form, 'client_secret');
  if (!clientId) return err(invalidClient('client authentication is required'));
  return ok({ clientId, secret, method: secret === undefined ? 'none' : 'client_secret_post' });
}

/**
 * RFC 6749 section 2.3 and 3.2.1: authenticates the client at the token, revocation (RFC 7009
 * section 2.1) and introspection (RFC 7662 section 2.1) endpoints. Confidential clients use
 * `client_secret_basic` (2.3.1, preferred) or `client_secret_post`; public clients present their
 * `client_id` alone (`none`, RFC 7591 section 2) and are held to PKCE instead.
 */
export function authenticateClient(
  deps: { readonly store: OAuthStore },
  request: ClientAuthenticationRequest,
): ResultAsync<OAuthClientRecord, OAuthFailure> {
  const presented = presentedCredentials(request);
  if (presented.isErr()) return errAsync(presented.error);
  const { clientId, secret, method } = presented.value;
  const invalidClient = (description: string) =>
    oauthError('invalid_client', description, request.authorization ? { challenge: 'basic' } : {});
  return deps.store.clients.get(clientId).andThen((client): Result<OAuthClientRecord, OAuthError> => {
    if (!client) return err(invalidClient('client authentication failed'));
    if (client.type === 'confidential') {
      if (method === 'none' || !client.secretHash || !sameSecretHash(secret ?? '', client.secretHash)) {
        return err(invalidClient('client authentication failed'));
      }
    } else if (method !== 'none') {
      return err(invalidClient('a public client authenticates with client_id only'));
    }
    return ok(client);
  });
}
