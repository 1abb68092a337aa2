import { OAUTH_SCOPES } from './params.js';
import type { OAuthSettings } from './settings.js';

/**
 * RFC 8414 section 2: the authorization server metadata document. `registration_endpoint` is
 * listed only when registration is enabled (RFC 7591 is optional).
 */
export function authorizationServerMetadata(
  settings: Pick<OAuthSettings, 'issuer' | 'endpoints'>,
  options: { readonly registration: boolean },
) {
  const { issuer, endpoints } = settings;
  return {
    issuer,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    revocation_endpoint: endpoints.revocation,
    introspection_endpoint: endpoints.introspection,
    ...(options.registration ? { registration_endpoint: endpoints.registration } : {}),
    scopes_supported: OAUTH_SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    // RFC 9207: authorization responses carry `iss`, against mix-up attacks.
    authorization_response_iss_parameter_supported: true,
  } as const;
}
