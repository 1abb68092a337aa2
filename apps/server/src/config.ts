import { bool, CoreConfigSchema, parseEnv } from '@token-actions/runtime/edge';
import { z } from 'zod';
import { CorsOriginsSchema } from './http/cors.js';

/**
 * Environment of the server: the runtime's fragments (state, keys, chain, policies, swaps, loops)
 * plus HTTP, OAuth and rate limits. Parsed once at start-up; a bad value stops the process naming
 * the variable.
 */
export const ServerConfigSchema = CoreConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: z.string().url().optional(),
  RUN_WORKER: bool.default(true),
  REDIS_URL: z.string().url().optional(),
  /** Interface B: requests a minute per OAuth client, and per address without a valid token. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /** The operator token of the admin API and OAuth client registration; generated on a localnet. */
  ADMIN_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The earlier name of ADMIN_TOKEN, still read. */
  OAUTH_ADMIN_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SEC: z.coerce.number().int().min(60).max(86_400).default(3_600),
  REFRESH_TOKEN_TTL_SEC: z.coerce
    .number()
    .int()
    .min(300)
    .max(90 * 86_400)
    .default(30 * 86_400),
  /** Standard Webhooks secret (whsec_...) of POST /v1/webhooks/transaction-complete; unset = OAuth write scope instead. */
  WEBHOOK_SECRET: z.string().min(16, 'must be a whsec_ secret').optional(),
  /** Origins a browser may call interface B and OAuth from (comma-separated); default: the
   * redirect-URI origins of public OAuth clients. */
  CORS_ALLOWED_ORIGINS: CorsOriginsSchema.optional(),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .max(10_000_000)
    .default(64 * 1024),
  /** Slowloris guard: the whole header block must arrive within this (Node's default is 60 s). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(10_000),
  /** Headers and body must arrive within this, or the connection is answered 408 and closed (Node: 300 s). */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(15_000),
  /** An idle keep-alive connection is closed after this. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** Serve GET /metrics without the operator token (a scraper on a private network). */
  METRICS_PUBLIC: bool.default(false),
});

export type ServerConfig = z.infer<typeof ServerConfigSchema>;

export function parseConfig(env: Record<string, string | undefined>): ServerConfig {
  const config = parseEnv(ServerConfigSchema, env);
  if (config.ADMIN_TOKEN && config.OAUTH_ADMIN_TOKEN && config.ADMIN_TOKEN !== config.OAUTH_ADMIN_TOKEN) {
    throw new Error(
      'invalid configuration:\n  OAUTH_ADMIN_TOKEN: is the old name of ADMIN_TOKEN; set one of them, or both to the same value',
    );
  }
  // Node refuses a header deadline past the request deadline; say so in the variables' names.
  if (config.HTTP_HEADERS_TIMEOUT_MS > config.HTTP_REQUEST_TIMEOUT_MS) {
    throw new Error(
      'invalid configuration:\n  HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS',
    );
  }
  return config;
}
