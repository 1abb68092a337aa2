/*
 * Providers put the API key in the endpoint URL: in the query (`?api-key=…`), in a path segment
 * (`/v2/<key>`, `/<token>/`) or as user info. What the transport shows of an endpoint (observer
 * events, error messages) is its redacted form, safe to log and to use as a metrics label.
 */

/** A path segment kept as it is: a lower-case word (`rpc`, `solana-mainnet`) or a version (`v2`). */
const PLAIN_SEGMENT = /^(?:[a-z]+(?:[-_.][a-z]+)*|v\d{1,2})$/;
const MAX_PLAIN_LENGTH = 24;
const REDACTED = '***';
const MIN_SECRET_LENGTH = 8;

/**
 * `scheme://host[:port]/path` with user info, query and fragment dropped and every path segment
 * that could be a key (digits, mixed case, long) replaced by `***`.
 */
export function redactEndpoint(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '[unparseable endpoint]';
  }
  const path = parsed.pathname
    .split('/')
    .map((segment) => (isPlain(segment) ? segment : REDACTED))
    .join('/');
  return `${parsed.protocol}//${parsed.host}${path === '/' ? '' : path}`;
}

/**
 * The labels of a list of endpoints: each one's redacted form, made unique with `#n` when two
 * endpoints differ only in what was redacted (the same provider with two keys).
 */
export function endpointLabels(urls: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return urls.map((url) => {
    const label = redactEndpoint(url);
    const count = (seen.get(label) ?? 0) + 1;
    seen.set(label, count);
    return count === 1 ? label : `${label}#${count}`;
  });
}

/**
 * `text` with every spelling of the raw URLs replaced by their labels (as given, and as `URL`
 * normalises it), and the secret parts alone (query, password, redacted path segments) by `***`:
 * some HTTP clients put the URL, or parts of it, in their error messages.
 */
export function scrubUrls(text: string, endpoints: readonly { url: string; label: string }[]): string {
  const replacements = new Map<string, string>();
  for (const { url, label } of endpoints) {
    replacements.set(url, label);
    try {
      const parsed = new URL(url);
      replacements.set(parsed.href, label);
      for (const secret of [parsed.search.slice(1), parsed.password, ...secretSegments(parsed.pathname)]) {
        // A short fragment would match ordinary words of the message; the whole URL is replaced anyway.
        if (secret.length >= MIN_SECRET_LENGTH) replacements.set(secret, REDACTED);
      }
    } catch {
      // An unparseable URL never reached `fetch`: the spelling given is the only one to remove.
    }
  }
  // Longest first, so a whole URL is replaced before the key inside it.
  let scrubbed = text;
  for (const [spelling, replacement] of [...replacements].sort(([a], [b]) => b.length - a.length)) {
    scrubbed = scrubbed.split(spelling).join(replacement);
  }
  return scrubbed;
}

function isPlain(segment: string): boolean {
  return segment === '' || (segment.length <= MAX_PLAIN_LENGTH && PLAIN_SEGMENT.test(segment));
}

function secretSegments(pathname: string): string[] {
  return pathname.split('/').filter((segment) => !isPlain(segment));
}
