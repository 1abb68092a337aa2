import { ERROR_CODES } from '@token-actions/core';
import type { FuzzRequest, FuzzResponse } from './http.js';
import type { Iface } from './routes.js';
import { A_ERRORS } from './routes.js';

/**
 * The properties every answer must have, whatever was sent. Returns the violations (empty when
 * the answer is fine), each a sentence a human can act on.
 */
export function checkAnswer(
  iface: Iface,
  req: FuzzRequest,
  res: FuzzResponse,
  options: { mustRefuse?: boolean; secrets?: readonly string[]; statuses?: readonly number[] } = {},
): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`answered ${res.status}`);
  const allowed = options.statuses ?? [200, ...A_ERRORS];
  if (res.status < 500 && !allowed.includes(res.status)) problems.push(`unexpected status ${res.status}`);
  if (options.mustRefuse && res.status < 300)
    problems.push(`accepted (${res.status}) a request it must refuse`);

  const hasBody = req.method !== 'HEAD' && res.status !== 204 && res.status !== 304;
  const type = String(res.headers['content-type'] ?? '');
  if (hasBody && res.status >= 400) problems.push(...checkErrorBody(iface, type, res.text));
  if (hasBody && res.status < 300 && iface === 'A') {
    const parsed = parseJson(res.text);
    if (!isPlainObject(parsed)) problems.push(`2xx body is not a JSON object: ${clip(res.text)}`);
  }
  for (const secret of options.secrets ?? []) {
    if (secret && res.text.includes(secret)) problems.push('the answer contains a secret');
  }
  if (/node_modules|\/work\/|\bat [\w.<>]+ \(|\.ts:\d+:\d+/.test(res.text))
    problems.push(`the answer leaks internals: ${clip(res.text)}`);
  return problems;
}

/** Error bodies per interface: A and the public routes `{message, code}`, B `{code, message, rateLimit}`, admin `{code, message}`. */
export function checkErrorBody(iface: Iface, contentType: string, text: string): string[] {
  const body = parseJson(text);
  const problems: string[] = [];
  if (!/^application\/json\b/i.test(contentType))
    problems.push(`error content-type is "${contentType}", not application/json`);
  switch (iface) {
    case 'A':
    case 'public': {
      if (
        !isPlainObject(body) ||
        Object.keys(body).length !== 2 ||
        typeof body.message !== 'string' ||
        body.message.length === 0 ||
        !(ERROR_CODES as readonly unknown[]).includes(body.code)
      ) {
        problems.push(`error body is not exactly {message: string, code: ErrorCode}: ${clip(text)}`);
      }
      break;
    }
    case 'B': {
      const rl = isPlainObject(body) ? body.rateLimit : undefined;
      if (
        !isPlainObject(body) ||
        typeof body.code !== 'string' ||
        typeof body.message !== 'string' ||
        !isPlainObject(rl) ||
        typeof rl.limit !== 'number' ||
        typeof rl.remaining !== 'number'
      ) {
        problems.push(`error body is not {code, message, rateLimit}: ${clip(text)}`);
      }
      break;
    }
    case 'admin': {
      if (
        !isPlainObject(body) ||
        Object.keys(body).length !== 2 ||
        typeof body.code !== 'string' ||
        typeof body.message !== 'string' ||
        body.message.length === 0
      ) {
        problems.push(`error body is not exactly {code, message}: ${clip(text)}`);
      }
      break;
    }
    case 'oauth': {
      if (!isPlainObject(body) || typeof body.error !== 'string')
        problems.push(`OAuth error body has no "error": ${clip(text)}`);
      break;
    }
  }
  return problems;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function clip(text: string, n = 160): string {
  return text.length > n
    ? `${JSON.stringify(text.slice(0, n))}...(${text.length} chars)`
    : JSON.stringify(text);
}

/** One line that reproduces a request by hand. */
export function describeRequest(req: FuzzRequest): string {
  const body =
    req.body === undefined
      ? ''
      : typeof req.body === 'string'
        ? clip(req.body, 200)
        : `<${req.body.length} bytes>`;
  const headers = Object.entries(req.headers)
    .map(
      ([k, v]) =>
        `${k}: ${clip(k === 'authorization' ? v.replace(/ta_[0-9a-f]{48}/, 'ta_<dev key>') : v, 80)}`,
    )
    .join('; ');
  return `${req.method} ${clip(req.path, 200)}${req.chunked ? ' (chunked)' : ''} [${headers}] ${body}`;
}
