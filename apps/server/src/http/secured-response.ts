import { type IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { HEADERS_BELOW_APP, securityHeadersFor } from './security-headers.js';

type HeadersArgument = OutgoingHttpHeaders | (string | string[] | number)[];

/** The names, lower case, of the headers an answer may carry that `securityHeadersFor` decides. */
const DECIDED = new Set(['x-content-type-options', 'x-frame-options', 'content-security-policy']);

/** What `writeHead` needs to know of the headers given to it, read in one pass. */
interface GivenHeads {
  contentType?: string;
  policy?: string;
  /** Lower-case names among `DECIDED` that were given. */
  decided?: string[];
  /** The answer's own `Vary`, when it has one. */
  vary?: string;
}

function readGiven(headers: HeadersArgument | undefined): GivenHeads {
  const found: GivenHeads = {};
  if (!headers) return found;
  const note = (name: string, value: unknown) => {
    const lower = name.toLowerCase();
    if (lower === 'content-type') found.contentType ??= String(value);
    if (lower === 'vary') found.vary = found.vary === undefined ? String(value) : `${found.vary}, ${value}`;
    if (!DECIDED.has(lower)) return;
    if (lower === 'content-security-policy') found.policy ??= String(value);
    if (found.decided) found.decided.push(lower);
    else found.decided = [lower];
  };
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) note(String(headers[i]), headers[i + 1]);
  } else {
    for (const key in headers) note(key, headers[key]);
  }
  return found;
}

/** A copy of `headers` without the ones named (lower case), in whichever form they came. */
function without(headers: HeadersArgument, names: ReadonlySet<string>): HeadersArgument {
  if (Array.isArray(headers)) {
    const kept: (string | string[] | number)[] = [];
    for (let i = 0; i + 1 < headers.length; i += 2) {
      if (!names.has(String(headers[i]).toLowerCase())) kept.push(headers[i]!, headers[i + 1]!);
    }
    return kept;
  }
  const kept: OutgoingHttpHeaders = {};
  for (const key in headers) if (!names.has(key.toLowerCase())) kept[key] = headers[key];
  return kept;
}

/**
 * The Node server's response (`createServer({ ServerResponse: SecuredResponse })`): it adds
 * `securityHeadersFor` to every answer as its head is written, from the headers the app gave it.
 * The app's own middleware then leaves the response alone: on @hono/node-server,
 * reading a response's headers after the handler turns them into an undici `Headers` and back,
 * about 8% of a tracking read's CPU. What the app sets on this response before it answers (the
 * request id, the swaps' rate limits, CORS' `Vary: Origin`) Node merges into the answer's own
 * headers: the answer's win, except `Vary`, whose values are joined.
 */
export class SecuredResponse extends ServerResponse<IncomingMessage> {
  readonly [HEADERS_BELOW_APP] = true;

  // biome-ignore lint/suspicious/noExplicitAny: Node's overloads (status, [reason], [headers]).
  override writeHead(statusCode: number, ...rest: any[]): this {
    if (!this.headersSent) {
      const last = rest.length > 0 ? rest[rest.length - 1] : undefined;
      const given = typeof last === 'object' && last !== null ? (last as HeadersArgument) : undefined;
      const heads = readGiven(given);
      const wanted = securityHeadersFor(
        heads.contentType ?? this.headerValue('content-type'),
        heads.policy ?? this.headerValue('content-security-policy'),
      );
      // Node merges headers set here with the ones given to writeHead, and the given ones win.
      // These win instead, as the middleware's do (a page's policy comes back with
      // frame-ancestors added), so any of them among the given ones leaves that set.
      for (const name in wanted) this.setHeader(name, wanted[name]!);
      const removed: string[] = [];
      if (given && heads.decided) {
        for (const name in wanted)
          if (heads.decided.includes(name.toLowerCase())) removed.push(name.toLowerCase());
      }
      // `Vary` set here before the answer existed (CORS' `Origin`) and the answer's own both hold.
      const vary = this.headerValue('vary');
      if (given && heads.vary !== undefined && vary !== undefined) {
        this.setHeader('Vary', `${vary}, ${heads.vary}`);
        removed.push('vary');
      }
      if (given && removed.length > 0) rest[rest.length - 1] = without(given, new Set(removed));
    }
    return super.writeHead(statusCode, ...rest);
  }

  private headerValue(name: string): string | undefined {
    const value = this.getHeader(name);
    return value === undefined ? undefined : String(value);
  }
}
