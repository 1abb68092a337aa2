import type { MiddlewareHandler } from 'hono';

/**
 * `nosniff` on every answer, so a browser never runs a JSON body (or an error echoing input) as
 * HTML or script; and on every HTML page, anti-framing (clickjacking): `X-Frame-Options: DENY`
 * for old browsers and CSP `frame-ancestors 'none'`, added to a page's own policy when it has one.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const headers = c.res.headers;
  headers.set('X-Content-Type-Options', 'nosniff');
  if (!/^text\/html\b/i.test(headers.get('content-type') ?? '')) return;
  headers.set('X-Frame-Options', 'DENY');
  const policy = headers.get('content-security-policy');
  if (!policy) headers.set('Content-Security-Policy', "frame-ancestors 'none'");
  else if (!/(^|;)\s*frame-ancestors\s/i.test(policy)) {
    headers.set('Content-Security-Policy', `${policy}; frame-ancestors 'none'`);
  }
};
