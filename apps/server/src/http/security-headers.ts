import type { Context, MiddlewareHandler, Next } from 'hono';

/**
 * Marks a Node response that adds the security headers itself as it is written (`SecuredResponse`
 * in `secured-response.ts`, which the Node entry's server uses). Runtime-neutral: the app never
 * imports node:http.
 */
export const HEADERS_BELOW_APP = Symbol.for('token-actions.headers-below-app');

/** The Node response under this request, when it takes the headers on itself. */
export function nodeResponseOf(c: Context): NodeHeaderTarget | undefined {
  const outgoing = (c.env as { outgoing?: Partial<NodeHeaderTarget> } | undefined)?.outgoing;
  return outgoing && HEADERS_BELOW_APP in outgoing && typeof outgoing.setHeader === 'function'
    ? (outgoing as NodeHeaderTarget)
    : undefined;
}

interface NodeHeaderTarget {
  setHeader(name: string, value: string): unknown;
}

/**
 * Runs `next` so that whatever answers (a handler, an error handler, a 404) carries `headers`.
 * Under the Node server they go on its response first, and Node merges them into the answer's
 * own as it is written (`SecuredResponse` joins a `Vary`): the app's response is never read, which
 * on @hono/node-server would turn it into an undici `Headers` (about 8% of a tracking read's
 * CPU). Elsewhere they are set on the answer once it exists (not before: Hono would build every
 * answer around them), a `Vary` appended to the answer's own.
 */
export function withAnswerHeaders(
  c: Context,
  next: Next,
  headers: Readonly<Record<string, string>>,
): Promise<void> {
  const node = nodeResponseOf(c);
  if (node) {
    for (const name in headers) node.setHeader(name, headers[name]!);
    return next();
  }
  return next().then(() => {
    const answer = c.res.headers;
    for (const name in headers) {
      if (name.toLowerCase() === 'vary') answer.append(name, headers[name]!);
      else answer.set(name, headers[name]!);
    }
  });
}

/** What every answer that is not a page gets; one object for all of them. */
const NOSNIFF: Readonly<Record<string, string>> = Object.freeze({ 'X-Content-Type-Options': 'nosniff' });

/**
 * The security headers an answer gets, from its content type and its own policy: `nosniff` on
 * every answer, so a browser never runs a JSON body (or an error echoing input) as HTML or script;
 * and on every HTML page, anti-framing (clickjacking): `X-Frame-Options: DENY` for old browsers
 * and CSP `frame-ancestors 'none'`, added to a page's own policy when it has one.
 */
export function securityHeadersFor(
  contentType: string | undefined,
  policy: string | undefined,
): Readonly<Record<string, string>> {
  if (!/^text\/html\b/i.test(contentType ?? '')) return NOSNIFF;
  const headers: Record<string, string> = { 'X-Content-Type-Options': 'nosniff', 'X-Frame-Options': 'DENY' };
  if (!policy) headers['Content-Security-Policy'] = "frame-ancestors 'none'";
  else if (!/(^|;)\s*frame-ancestors\s/i.test(policy)) {
    headers['Content-Security-Policy'] = `${policy}; frame-ancestors 'none'`;
  }
  return headers;
}

/**
 * `securityHeadersFor` on every answer. Under the Node server they are added as the answer is
 * written: reading `c.res.headers` here would turn @hono/node-server's light
 * response into an undici `Headers` on every request.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  if (nodeResponseOf(c)) return next();
  await next();
  const headers = c.res.headers;
  const wanted = securityHeadersFor(
    headers.get('content-type') ?? undefined,
    headers.get('content-security-policy') ?? undefined,
  );
  for (const [name, value] of Object.entries(wanted)) headers.set(name, value);
};
