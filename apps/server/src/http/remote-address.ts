import type { Context } from 'hono';

/**
 * The caller's address as @hono/node-server's socket sees it: the default key of the per-address
 * limits (a deployment behind a proxy passes one that reads a trusted header instead).
 */
export function nodeRemoteAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}
