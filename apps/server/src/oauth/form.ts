import {
  authenticateClient,
  isFormContentType,
  type OAuthClientRecord,
  type OAuthDeps,
  type OAuthFailure,
  tokenEndpointForm,
} from '@token-actions/core';
import type { Context } from 'hono';
import { ResultAsync } from 'neverthrow';
import type { OAuthRouteContext } from './app.js';

/** The body of a form post, or undefined when it was not form-encoded (so it is never read). */
export async function readForm(c: Context): Promise<URLSearchParams | undefined> {
  if (!isFormContentType(c.req.header('content-type'))) return undefined;
  return new URLSearchParams(await c.req.text());
}

export interface ClientRequest {
  /** The protocol's ports for this request, made once for it. */
  readonly deps: OAuthDeps;
  readonly client: OAuthClientRecord;
  readonly form: URLSearchParams;
}

/**
 * The form-encoded body of a token, revocation or introspection request, and the client it
 * authenticates (RFC 6749 sections 2.3 and 3.2).
 */
export function clientRequest(
  c: Context,
  { depsFor }: OAuthRouteContext,
): ResultAsync<ClientRequest, OAuthFailure> {
  const authorization = c.req.header('authorization');
  const deps = depsFor(c);
  // A body over the limit rejects here, unlike a Result: the body limit answers it with 413.
  return ResultAsync.fromSafePromise(readForm(c))
    .andThen(tokenEndpointForm)
    .andThen((form) =>
      authenticateClient(deps, { ...(authorization ? { authorization } : {}), form }).map((client) => ({
        deps,
        client,
        form,
      })),
    );
}
