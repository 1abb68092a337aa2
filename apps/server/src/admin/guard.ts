import { hashSecret } from '@token-actions/core';
import type { MiddlewareHandler } from 'hono';
import { errorAdmin } from './render.js';

/** Equal-length strings compared without an early exit, so timing does not tell how much matched. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * `Authorization: Bearer <operator token>`. The presented token and the configured one are hashed
 * before comparing, so the comparison always runs over 64 hex digits whatever was sent, and
 * neither token is ever written to a log. Without a configured token the admin API is off.
 */
export function adminGuard(adminToken: string | undefined): MiddlewareHandler {
  const expected = adminToken ? hashSecret(adminToken) : undefined;
  return async (c, next) => {
    if (!expected) {
      return errorAdmin(c, 404, 'NOT_SUPPORTED', 'the admin API is off: set ADMIN_TOKEN to enable it');
    }
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer ([\x21-\x7e]{1,512})$/i.exec(header);
    if (!match || !constantTimeEqual(hashSecret(match[1]!), expected)) {
      return errorAdmin(c, 401, 'UNAUTHORIZED', 'missing or invalid admin token', {
        'WWW-Authenticate': 'Bearer realm="admin"',
      });
    }
    await next();
  };
}
