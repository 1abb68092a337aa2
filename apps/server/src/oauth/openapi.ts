import { type OpenAPIHono, z } from '@hono/zod-openapi';
import {
  AuthorizeQuery,
  ClientMetadata,
  Introspection,
  Metadata,
  OAuthError,
  RegisteredClient,
  SignInChallenge,
  scope,
  TokenForm,
  TokenRequest,
  TokenResponse,
} from './openapi-schemas.js';

/**
 * The OAuth 2.0 authorization server in the OpenAPI document. Its routes are a plain Hono app (the
 * protocol functions parse their own form bodies, per RFC), so they are declared here, for the
 * reader, rather than generated from validators: what they say is checked by the OpenAPI test,
 * which validates every answer of a full authorization-code flow against these declarations.
 */
type Registry = OpenAPIHono['openAPIRegistry'];

const FORM = 'application/x-www-form-urlencoded';
const NO_STORE = {
  'Cache-Control': { description: 'no-store (RFC 6749 section 5.1)', schema: { type: 'string' as const } },
};

/** One RFC 6749 error answer per status, as the endpoints send them. */
const oauthErrors = (statuses: readonly (400 | 401 | 413 | 429 | 500 | 503)[]) => {
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

const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string().openapi({ description: 'An HTML page' }) } },
});
const redirect = (description: string) => ({
  description,
  headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' as const } } },
});

const tags = ['OAuth'];
/** Confidential clients authenticate with HTTP Basic or in the body; public ones send only client_id. */
const clientSecurity: Record<string, string[]>[] = [{ oauthClient: [] }, {}];

/** Declares the authorization server's endpoints (registration answers 404 while it is disabled). */
export function registerOAuthDocs(registry: Registry): void {
  registry.registerComponent('securitySchemes', 'oauthClient', {
    type: 'http',
    scheme: 'basic',
    description: 'OAuth client authentication (client_secret_basic): client_id and client_secret',
  });
  registry.registerComponent('securitySchemes', 'oauthAdmin', {
    type: 'http',
    scheme: 'bearer',
    description: 'OAUTH_ADMIN_TOKEN, for client registration',
  });

  registry.registerPath({
    method: 'get',
    path: '/.well-known/oauth-authorization-server',
    operationId: 'getAuthorizationServerMetadata',
    tags,
    security: [],
    summary: 'Authorization server metadata (RFC 8414)',
    responses: { 200: { description: 'Metadata', content: { 'application/json': { schema: Metadata } } } },
  });

  registry.registerPath({
    method: 'get',
    path: '/oauth/authorize',
    operationId: 'authorize',
    tags,
    security: [],
    summary: 'Authorization endpoint: the consent page, where the user signs in with their wallet',
    description: 'Authorization code flow with PKCE (S256 only). Open it in a browser, not with fetch.',
    request: { query: AuthorizeQuery },
    responses: {
      200: html('The consent page'),
      302: redirect(
        'Back to redirect_uri with error (and state, iss) once the client and redirect are known',
      ),
      400: html('Unknown client or redirect URI: shown to the user, never redirected'),
      500: html('Unexpected error'),
      503: html('The authorization server storage is unavailable'),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/oauth/authorize/challenge',
    operationId: 'issueSignInChallenge',
    tags,
    security: [],
    summary: 'A Sign-In With Solana message for the consent page to have the wallet sign',
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.object({
              address: z.string().openapi({ example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' }),
              client_id: z.string().openapi({ example: 'demo-client' }),
              scope,
            }),
          },
        },
      },
    },
    responses: {
      200: {
        description: 'Challenge',
        headers: NO_STORE,
        content: { 'application/json': { schema: SignInChallenge } },
      },
      ...oauthErrors([400, 413, 429, 500, 503]),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/oauth/authorize',
    operationId: 'submitAuthorization',
    tags,
    security: [],
    summary: "The consent form's answer: approve (with the wallet's signature) or deny",
    request: {
      body: {
        required: true,
        content: {
          [FORM]: {
            schema: AuthorizeQuery.extend({
              decision: z.enum(['approve', 'deny']),
              address: z.string().optional(),
              signature: z.string().optional().openapi({ description: 'base58 signature of the challenge' }),
              nonce: z.string().optional(),
              issued_at: z.string().optional(),
              expiration_time: z.string().optional(),
            }),
          },
        },
      },
    },
    responses: {
      303: redirect('To redirect_uri with code, state and iss; or with error=access_denied'),
      400: html('The form is invalid or the signature does not verify'),
      413: { description: 'Body too large', content: { 'application/json': { schema: OAuthError } } },
      500: html('Unexpected error'),
      503: html('The authorization server storage is unavailable'),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/oauth/token',
    operationId: 'issueToken',
    tags,
    summary: 'Token endpoint: exchange a code (with its PKCE verifier) or rotate a refresh token',
    security: clientSecurity,
    request: { body: { required: true, content: { [FORM]: { schema: TokenRequest } } } },
    responses: {
      200: {
        description: 'Tokens',
        headers: NO_STORE,
        content: { 'application/json': { schema: TokenResponse } },
      },
      ...oauthErrors([400, 401, 413, 429, 500, 503]),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/oauth/revoke',
    operationId: 'revokeToken',
    tags,
    summary: "Revoke a token of this client, and the grant's other tokens (RFC 7009)",
    security: clientSecurity,
    request: { body: { required: true, content: { [FORM]: { schema: TokenForm } } } },
    responses: {
      200: {
        description: 'Revoked, or it was not a valid token of this client (empty body)',
        headers: NO_STORE,
      },
      ...oauthErrors([400, 401, 413, 429, 500, 503]),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/oauth/introspect',
    operationId: 'introspectToken',
    tags,
    summary: 'Is this token of this client active, and for whom (RFC 7662)',
    security: clientSecurity,
    request: { body: { required: true, content: { [FORM]: { schema: TokenForm } } } },
    responses: {
      200: {
        description: 'Token state',
        headers: NO_STORE,
        content: { 'application/json': { schema: Introspection } },
      },
      ...oauthErrors([400, 401, 413, 429, 500, 503]),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/oauth/clients',
    operationId: 'registerClient',
    tags,
    summary: 'Register a client (RFC 7591); enabled by OAUTH_ADMIN_TOKEN',
    security: [{ oauthAdmin: [] }],
    request: { body: { required: true, content: { 'application/json': { schema: ClientMetadata } } } },
    responses: {
      201: {
        description: 'Registered',
        headers: NO_STORE,
        content: { 'application/json': { schema: RegisteredClient } },
      },
      ...oauthErrors([400, 401, 413, 500, 503]),
      404: {
        description: 'Registration is disabled (no OAUTH_ADMIN_TOKEN)',
        content: {
          'application/json': {
            schema: z.object({ error: z.literal('not_found'), error_description: z.string() }),
          },
        },
      },
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/oauth/demo/callback',
    operationId: 'showDemoCallback',
    tags,
    security: [],
    summary: "The demo client's redirect page: shows the code and the curl that redeems it",
    request: {
      query: z.object({
        code: z
          .string()
          .optional()
          .openapi({ param: { name: 'code', in: 'query' } }),
        state: z
          .string()
          .optional()
          .openapi({ param: { name: 'state', in: 'query' } }),
        error: z
          .string()
          .optional()
          .openapi({ param: { name: 'error', in: 'query' } }),
      }),
    },
    responses: { 200: html('The code, or the error, with what to do next') },
  });
}
