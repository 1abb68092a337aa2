import { type IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { HEADERS_BELOW_APP, securityHeadersFor } from './security-headers.js';

type HeadersArgument = OutgoingHttpHeaders | (string | string[] | number)[];

function headerOf(headers: HeadersArgument | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() === name) return String(headers[i + 1]);
    }
    return undefined;
  }
  for (const key in headers) if (key.toLowerCase() === name) return String(headers[key]);
  return undefined;
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
 * The app's own middleware then leaves the response alone (decision 91): on @hono/node-server,
 * reading a response's headers after the handler turns them into an undici `Headers` and back,
 * about 8% of a tracking read's CPU.
 */
export class SecuredResponse extends ServerResponse<IncomingMessage> {
  readonly [HEADERS_BELOW_APP] = true;

  // biome-ignore lint/suspicious/noExplicitAny: Node's overloads (status, [reason], [headers]).
  override writeHead(statusCode: number, ...rest: any[]): this {
    if (!this.headersSent) {
      const last = rest.length > 0 ? rest[rest.length - 1] : undefined;
      const given = typeof last === 'object' && last !== null ? (last as HeadersArgument) : undefined;
      const read = (name: string) => headerOf(given, name) ?? this.headerValue(name);
      const policy = read('content-security-policy');
      const wanted = securityHeadersFor(read('content-type'), policy);
      // Node merges headers set here with the ones given to writeHead, and the given ones win.
      // These win instead, as the middleware's do (a page's policy comes back with
      // frame-ancestors added), so any of them among the given ones leaves that set.
      for (const [name, value] of Object.entries(wanted)) this.setHeader(name, value);
      if (given) {
        const replaced = new Set(Object.keys(wanted).map((name) => name.toLowerCase()));
        if ([...replaced].some((name) => headerOf(given, name) !== undefined)) {
          rest[rest.length - 1] = without(given, replaced);
        }
      }
    }
    return super.writeHead(statusCode, ...rest);
  }

  private headerValue(name: string): string | undefined {
    const value = this.getHeader(name);
    return value === undefined ? undefined : String(value);
  }
}
