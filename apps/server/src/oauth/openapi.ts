import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { OAuthError } from './openapi-schemas.js';

/**
 * The OpenAPI pieces the OAuth routes declare. The routes are plain Hono routes (the protocol
 * functions parse their own form bodies, per RFC), so each declares itself beside its handler,
 * for the reader, rather than through validators: what they say is checked by the OpenAPI test,
 * which validates every answer of a full authorization-code flow against the declarations.
 */
type Registry = OpenAPIHono['openAPIRegistry'];

export const FORM = 'application/x-www-form-urlencoded';
export const NO_STORE = {
  'Cache-Control': { description: 'no-store (RFC 6749 section 5.1)', schema: { type: 'string' as const } },
};

/** One RFC 6749 error answer per status, as the endpoints send them. */
export const oauthErrors = (statuses: readonly (400 | 401 | 413 | 429 | 500 | 503)[]) => {
  const description = {
    400: 'invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, ... (RFC 6749 section 5.2)',
    401: 'invalid_client: client authentication failed (WWW-Authenticate: Basic when it was tried)',
    413: 'Body larger than 64 KiB (invalid_request)',
    429: 'Too many requests from this address (temporarily_unavailable, Retry-After)',
    500: 'server_error',
    503: 'temporarily_unavailable: the authorization server storage is unavailable',
  } as const;
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: description[status],
        headers: NO_STORE,
        content: { 'application/json': { schema: OAuthError } },
      },
    ]),
  );
};

export const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string().openapi({ description: 'An HTML page' }) } },
});
export const redirect = (description: string) => ({
  description,
  headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' as const } } },
});

export const tags = ['OAuth'];
/** Confidential clients authenticate with HTTP Basic or in the body; public ones send only client_id. */
export const clientSecurity: Record<string, string[]>[] = [{ oauthClient: [] }, {}];

/** The credentials the OAuth endpoints declare: a client's, and the operator's for registration. */
export function registerOAuthSecuritySchemes(registry: Registry): void {
  registry.registerComponent('securitySchemes', 'oauthClient', {
    type: 'http',
    scheme: 'basic',
    description: 'OAuth client authentication (client_secret_basic): client_id and client_secret',
  });
  registry.registerComponent('securitySchemes', 'oauthAdmin', {
    type: 'http',
    scheme: 'bearer',
    description:
      'The operator token (ADMIN_TOKEN; its old name OAUTH_ADMIN_TOKEN is still read), for client registration',
  });
}
