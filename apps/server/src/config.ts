import { bool, CoreConfigSchema, parseEnv } from '@token-actions/worker';
import { z } from 'zod';

/** Environment of the server; parsed once at start-up. A bad value stops the process naming the variable. */
export const ServerConfigSchema = CoreConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: z.string().url().optional(),
  RUN_WORKER: bool.default(true),
  REDIS_URL: z.string().url().optional(),
  /** Interface B: requests a minute per OAuth client, and per address without a valid token. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
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
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .max(10_000_000)
    .default(64 * 1024),
});

export type ServerConfig = z.infer<typeof ServerConfigSchema>;

export function parseConfig(env: Record<string, string | undefined>): ServerConfig {
  return parseEnv(ServerConfigSchema, env);
}
