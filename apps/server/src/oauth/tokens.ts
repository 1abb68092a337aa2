/** The swaps' bearer guard resolves access tokens with the protocol's own lookup (RFC 6750). */
export { type BearerPrincipal, resolveAccessToken } from '@token-actions/core';
