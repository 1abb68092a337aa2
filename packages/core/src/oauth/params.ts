import { err, ok, type Result } from 'neverthrow';
import type { OAuthScope } from '../ports/oauth.js';
import { type OAuthError, oauthError } from './errors.js';

export const OAUTH_SCOPES: readonly OAuthScope[] = ['read', 'write'];

export function isOAuthScope(value: string): value is OAuthScope {
  return (OAUTH_SCOPES as readonly string[]).includes(value);
}

/** RFC 6749 section 3.1: a parameter sent without a value is treated as omitted. */
export function param(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  return value === null || value === '' ? undefined : value;
}

/** RFC 6749 section 3.1 / 3.2: request parameters must not be included more than once. */
export function repeatedParam(params: URLSearchParams, names?: readonly string[]): string | undefined {
  const seen: string[] = [];
  params.forEach((_value, name) => {
    if (!seen.includes(name)) seen.push(name);
  });
  for (const name of names ?? seen) if (params.getAll(name).length > 1) return name;
  return undefined;
}

/** RFC 6749 section 3.3: space-delimited, order-insensitive; answered in canonical order. */
export function parseScope(value: string | undefined): OAuthScope[] | undefined {
  if (value === undefined) return undefined;
  const tokens = value.split(' ').filter(Boolean);
  if (tokens.length === 0 || !tokens.every((t) => isOAuthScope(t))) return undefined;
  return OAUTH_SCOPES.filter((s) => tokens.includes(s));
}

/** RFC 6749 section 3.2: requests to the token endpoint are application/x-www-form-urlencoded. */
export function isFormContentType(contentType: string | undefined): boolean {
  return /^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType ?? '');
}

/**
 * RFC 6749 section 3.2 (and RFC 7009 2.1, RFC 7662 2.1, which reuse it): the body of a request to
 * the token, revocation or introspection endpoint; `undefined` when it was not form-encoded.
 */
export function tokenEndpointForm(form: URLSearchParams | undefined): Result<URLSearchParams, OAuthError> {
  if (!form) return err(oauthError('invalid_request', 'the body must be application/x-www-form-urlencoded'));
  const repeated = repeatedParam(form);
  if (repeated)
    return err(oauthError('invalid_request', `the parameter ${repeated} was sent more than once`));
  return ok(form);
}

/** Adds query parameters to a registered redirect URI, keeping the ones it already has. */
export function withParams(uri: string, values: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(values))
    if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/** A JSON request body; undefined when it was unreadable or is not JSON. */
export function parseJsonBody(text: string | undefined): { readonly value: unknown } | undefined {
  if (text === undefined) return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}
