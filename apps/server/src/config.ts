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
  REFRESH_TOKEN_TTL_SEC: z.coerce.number().int().min(300).max(90 * 86_400).default(30 * 86_400),
  /** Pools seeded on the localnet at boot, "<reserve A>:<reserve B>" in whole units (issue 5). */
  POOL_NATIVE_STABLE_SEED: z.string().regex(/^\d+(\.\d+)?:\d+(\.\d+)?$/, 'must be "<amount>:<amount>"').default('1000:150000'),
  POOL_NATIVE_PROJECT_SEED: z.string().regex(/^\d+(\.\d+)?:\d+(\.\d+)?$/, 'must be "<amount>:<amount>"').default('1000:1000000'),
  POOL_STABLE_PROJECT_SEED: z.string().regex(/^\d+(\.\d+)?:\d+(\.\d+)?$/, 'must be "<amount>:<amount>"').default('150000:1000000'),
  POOL_FEE_BPS: z.coerce.number().int().min(0).max(1_000).default(30),
  /** SOL each pool authority holds beyond its reserves for the fees and rent of firm-quote swaps. */
  POOL_FEE_BUFFER_SOL: z.coerce.number().int().min(0).max(1_000_000).default(10),
  SWAP_QUOTE_TTL_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
  /** `local` routes over the project's pools (embedded default); `jupiter` calls Jupiter's Swap API. */
  AGGREGATOR: z.enum(['local', 'jupiter']).default('local'),
  JUPITER_BASE_URL: z.string().url().default('https://lite-api.jup.ag/swap/v1'),
  JUPITER_API_KEY: z.string().optional(),
  /** Standard Webhooks secret (whsec_...) of POST /v1/webhooks/transaction-complete; unset = OAuth write scope instead. */
  WEBHOOK_SECRET: z.string().min(16, 'must be a whsec_ secret').optional(),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(1_000),
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
