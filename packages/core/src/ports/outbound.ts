import type { ResultAsync } from 'neverthrow';
import type { DomainError } from '../errors.js';

/**
 * Whether the service may send requests to a URL someone else chose (a webhook URL): the guard
 * against server-side request forgery. Checked when the URL is registered and again when it is
 * used, since what a name resolves to can change in between. Fails with `INVALID_INPUT` naming
 * why (a loopback, private, link-local or metadata address).
 */
export interface OutboundUrlPolicy {
  check(url: string): ResultAsync<void, DomainError>;
}
