import { domainError } from '@token-actions/core';
import type { MiddlewareHandler } from 'hono';
import { createScanner, type SyntaxKind } from 'jsonc-parser';
import { DomainHttpError } from './errors.js';

/**
 * jsonc-parser's token kinds. Its `SyntaxKind` is a `const enum`, which isolated-module builds
 * cannot read, so the documented values are named here and typed by it.
 */
const TOKEN = {
  openBrace: 1 as SyntaxKind,
  closeBrace: 2 as SyntaxKind,
  openBracket: 3 as SyntaxKind,
  closeBracket: 4 as SyntaxKind,
  comma: 5 as SyntaxKind,
  string: 10 as SyntaxKind,
  eof: 17 as SyntaxKind,
} as const;

type Frame = { readonly keys: Set<string>; expectingKey: boolean } | null;

/**
 * The first key that appears twice in one object of `text`, compared after unescaping
 * (`"amount"` and `"am\u006funt"` are the same key). Walks jsonc-parser's token scanner with an
 * explicit stack rather than its recursive visitor, so a body nested 50,000 levels deep costs
 * memory, not the call stack. The text has already passed `JSON.parse`, so the tokens are strict
 * JSON and this only has to tell keys from values.
 */
export function findDuplicateKey(text: string): string | undefined {
  const scanner = createScanner(text, true);
  // One frame per open container: a set of keys for an object, null for an array.
  const open: Frame[] = [];
  for (let token = scanner.scan(); token !== TOKEN.eof; token = scanner.scan()) {
    const top = open.at(-1);
    switch (token) {
      case TOKEN.openBrace:
        open.push({ keys: new Set(), expectingKey: true });
        break;
      case TOKEN.openBracket:
        open.push(null);
        break;
      case TOKEN.closeBrace:
      case TOKEN.closeBracket:
        open.pop();
        break;
      case TOKEN.comma:
        if (top) top.expectingKey = true;
        break;
      case TOKEN.string:
        if (top?.expectingKey) {
          const key = scanner.getTokenValue();
          if (top.keys.has(key)) return key;
          top.keys.add(key);
          top.expectingKey = false;
        }
        break;
    }
  }
  return undefined;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

/**
 * JSON bodies with a key twice answer 400. `JSON.parse` keeps the last value, so
 * `{"amount":"50","amount":"0.000001"}` would donate what a reviewer of the first key did not see;
 * a body is only what it says once. Mount after the body limit: it reads the body through Hono's
 * body cache, so whatever reads it next (`c.req.json()`, `c.req.arrayBuffer()`) gets the same text.
 * Bodies that are not JSON at all are left to the validator and its own message.
 */
export const rejectDuplicateJsonKeys: MiddlewareHandler = async (c, next) => {
  const method = c.req.method;
  if (
    (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') ||
    !JSON_TYPE.test(c.req.header('content-type') ?? '')
  ) {
    return next();
  }
  // Hono keeps the text: the validator's `c.req.json()` parses it again without reading the
  // request a second time (a clone tees the body stream, which cost every JSON POST).
  const text = await c.req.text();
  try {
    JSON.parse(text);
  } catch {
    return next();
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined) {
    throw new DomainHttpError(
      domainError(
        'INVALID_INPUT',
        `invalid request: the key "${duplicate.slice(0, 40)}" appears twice in one JSON object`,
      ),
    );
  }
  await next();
};
