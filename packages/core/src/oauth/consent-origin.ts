import { err, ok, type Result } from 'neverthrow';
import { type AuthorizationPageError, pageError } from './authorize.js';
import type { OAuthSettings } from './settings.js';

/** The request headers a browser sets itself, which a page on another site cannot forge. */
export interface ConsentPostOrigin {
  readonly origin?: string;
  readonly secFetchSite?: string;
}

const crossSite = () =>
  pageError(
    'Request refused',
    'The consent form can only be submitted from its own page. Go back to the application and start again.',
  );

/**
 * Cross-site request forgery defence of the consent POST (RFC 6749 section 10.12, RFC 9700
 * section 4.7). `Sec-Fetch-Site`, when the browser sends it, decides: only `same-origin` passes.
 * It outranks `Origin` because the consent page's `Referrer-Policy: no-referrer` makes a browser
 * send `Origin: null` on the page's own form POST. Without it, `Origin` must be the issuer's.
 * Every current browser sends at least one of the two on a form POST, so a request with neither
 * comes from a non-browser client, which carries no victim's session and still has to present a
 * wallet signature over this very request.
 */
export function checkConsentOrigin(
  settings: Pick<OAuthSettings, 'issuer'>,
  headers: ConsentPostOrigin,
): Result<void, AuthorizationPageError> {
  if (headers.secFetchSite !== undefined) {
    return headers.secFetchSite === 'same-origin' ? ok(undefined) : err(crossSite());
  }
  if (headers.origin !== undefined && headers.origin !== new URL(settings.issuer).origin) {
    return err(crossSite());
  }
  return ok(undefined);
}
