import { z } from '@hono/zod-openapi';
import { OAUTH_ERROR_CODES, OAUTH_SCOPES } from '@token-actions/core';

/** The bodies of the OAuth endpoints as the OpenAPI document declares them (see openapi.ts). */

export const OAuthError = z
  .object({
    error: z.enum(OAUTH_ERROR_CODES).openapi({ example: 'invalid_grant' }),
    error_description: z.string().openapi({ example: 'the authorization code is invalid, expired or used' }),
  })
  .openapi('OAuthError', { description: 'RFC 6749 section 5.2 error' });

export const scope = z.string().openapi({
  description: `Space-separated scopes: ${OAUTH_SCOPES.join(', ')}`,
  example: OAUTH_SCOPES.join(' '),
});

export const Metadata = z
  .object({
    issuer: z.string().openapi({ example: 'http://127.0.0.1:3000' }),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    revocation_endpoint: z.string(),
    introspection_endpoint: z.string(),
    registration_endpoint: z.string().optional(),
    scopes_supported: z.array(z.enum(OAUTH_SCOPES)),
    response_types_supported: z.array(z.literal('code')),
    response_modes_supported: z.array(z.literal('query')),
    grant_types_supported: z.array(z.enum(['authorization_code', 'refresh_token'])),
    code_challenge_methods_supported: z.array(z.literal('S256')),
    token_endpoint_auth_methods_supported: z.array(
      z.enum(['client_secret_basic', 'client_secret_post', 'none']),
    ),
    revocation_endpoint_auth_methods_supported: z.array(
      z.enum(['client_secret_basic', 'client_secret_post', 'none']),
    ),
    introspection_endpoint_auth_methods_supported: z.array(
      z.enum(['client_secret_basic', 'client_secret_post']),
    ),
    authorization_response_iss_parameter_supported: z.boolean(),
  })
  .openapi('AuthorizationServerMetadata', { description: 'RFC 8414 section 2' });

const clientCredentials = {
  client_id: z.string().optional().openapi({
    description: 'Required for public clients; confidential ones may use HTTP Basic instead',
    example: 'demo-client',
  }),
  client_secret: z.string().optional().openapi({ description: 'client_secret_post' }),
};

export const TokenRequest = z
  .object({
    grant_type: z.enum(['authorization_code', 'refresh_token']).openapi({ example: 'authorization_code' }),
    code: z.string().optional().openapi({ description: 'authorization_code grant', example: 'oac_5c1b...' }),
    redirect_uri: z.string().optional().openapi({ description: 'authorization_code grant: as authorized' }),
    code_verifier: z
      .string()
      .optional()
      .openapi({ description: 'authorization_code grant: PKCE (RFC 7636)' }),
    refresh_token: z.string().optional().openapi({ description: 'refresh_token grant' }),
    scope: scope.optional(),
    ...clientCredentials,
  })
  .openapi('TokenRequest');

export const TokenResponse = z
  .object({
    access_token: z.string().openapi({ example: 'oat_Yk3v...' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ example: 3600 }),
    refresh_token: z.string().openapi({ description: 'Rotated at every use', example: 'ort_9Qx2...' }),
    scope,
  })
  .openapi('TokenResponse', { description: 'RFC 6749 section 5.1' });

export const TokenForm = z
  .object({
    token: z.string().openapi({ description: 'An access or refresh token of this client' }),
    token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
    ...clientCredentials,
  })
  .openapi('TokenForm');

export const Introspection = z
  .object({
    active: z.boolean(),
    scope: scope.optional(),
    client_id: z.string().optional(),
    sub: z.string().optional().openapi({ description: 'The wallet that authorized the client' }),
    token_type: z.literal('Bearer').optional(),
    exp: z.number().int().optional(),
    iat: z.number().int().optional(),
  })
  .openapi('IntrospectionResponse', {
    description: 'RFC 7662 section 2.2; {active: false} for anything unknown',
  });

export const ClientMetadata = z
  .object({
    client_name: z.string().openapi({
      description: 'Shown on the consent page and signed in the wallet message: 1 to 80 characters, one line',
      example: 'My swap app',
    }),
    redirect_uris: z.array(z.string()).openapi({
      description:
        'Where the browser is sent back with the code: 1 to 10 absolute URLs, https (or http on a loopback host), no fragment; matched exactly',
      example: ['https://app.example.org/callback'],
    }),
    token_endpoint_auth_method: z
      .enum(['client_secret_basic', 'client_secret_post', 'none'])
      .optional()
      .openapi({
        description:
          'Default client_secret_basic: a confidential client, given a client_secret once. none registers a public (browser or CLI) client: no secret, PKCE only',
      }),
    scope: scope.optional().openapi({ description: 'The scopes it may request; default "read write"' }),
    webhook_url: z.string().optional().openapi({
      description:
        'Where signed swap.* events about its swaps are sent (https; a private address only with WEBHOOK_ALLOW_PRIVATE)',
      example: 'https://app.example.org/hooks/token-actions',
    }),
  })
  .openapi('ClientMetadata', {
    description:
      'RFC 7591 section 2: the client to register. Only client_name and redirect_uris are required',
    example: {
      client_name: 'My swap app',
      redirect_uris: ['https://app.example.org/callback'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'read write',
    },
  });

export const RegisteredClient = z
  .object({
    client_id: z.string(),
    client_secret: z.string().optional().openapi({ description: 'Confidential clients only; shown once' }),
    client_secret_expires_at: z.literal(0).optional(),
    client_id_issued_at: z.number().int(),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post', 'none']),
    grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])),
    response_types: z.array(z.literal('code')),
    scope,
    webhook_url: z.string().optional(),
  })
  .openapi('RegisteredClient', { description: 'RFC 7591 section 3.2.1' });

export const SignInChallenge = z
  .object({
    message: z.string().openapi({ description: 'The Sign-In With Solana message the wallet signs' }),
    nonce: z.string(),
    issuedAt: z.string().openapi({ format: 'date-time' }),
    expirationTime: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('SignInChallenge');

export const AuthorizeQuery = z.object({
  response_type: z.literal('code').openapi({ param: { name: 'response_type', in: 'query' } }),
  client_id: z.string().openapi({ param: { name: 'client_id', in: 'query' }, example: 'demo-client' }),
  redirect_uri: z.string().openapi({ param: { name: 'redirect_uri', in: 'query' } }),
  scope: scope.openapi({ param: { name: 'scope', in: 'query' } }),
  state: z
    .string()
    .optional()
    .openapi({ param: { name: 'state', in: 'query' } }),
  code_challenge: z.string().openapi({
    param: { name: 'code_challenge', in: 'query' },
    description: 'BASE64URL(SHA-256(code_verifier))',
  }),
  code_challenge_method: z.literal('S256').openapi({ param: { name: 'code_challenge_method', in: 'query' } }),
});
