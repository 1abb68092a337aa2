import { z } from 'zod';

export const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const bigintString = z
  .string()
  .regex(/^\d+$/, 'must be a whole number')
  .transform((v) => BigInt(v));

/**
 * What every process that runs the use-cases needs (server and standalone worker): state, keys,
 * chain, fee policy. The server's schema extends it with HTTP, OAuth and swap settings.
 */
export const CoreConfigSchema = z.object({
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().url().optional(),
  LOCALNET_RPC_PORT: z.coerce.number().int().min(0).max(65535).default(8899),
  /** Serve the embedded localnet's JSON-RPC on LOCALNET_RPC_PORT (0 picks a free port). */
  LOCALNET_RPC: bool.default(true),
  /** Run on the `rpc` chain adapter against this cluster instead of the embedded localnet. */
  SOLANA_RPC_URL: z.string().url().optional(),
  /** Cluster of SOLANA_RPC_URL; inferred from the URL when absent (loopback: localnet). */
  SOLANA_CLUSTER: z.enum(['localnet', 'devnet', 'testnet', 'mainnet-beta', 'custom']).optional(),
  /** Mints on SOLANA_RPC_URL; with neither set they are asked of a token-actions localnet (`localnet_getMints`). */
  USDC_MINT: z.string().regex(BASE58_KEY, 'must be a base58 public key').optional(),
  PROJECT_MINT: z.string().regex(BASE58_KEY, 'must be a base58 public key').optional(),
  KEYSTORE_MASTER_KEY: z.string().optional(),
  PROJECT_TICKER: z
    .string()
    .regex(/^[A-Z][A-Z0-9]{1,9}$/, 'must be 2-10 upper-case letters or digits')
    .default('PROJ'),
  SLOT_INTERVAL_MS: z.coerce.number().int().min(10).max(10_000).default(400),
  FINALITY_DEPTH_SLOTS: z.coerce.number().int().min(1).max(64).default(32),
  PREVIEW_TTL_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
  ESCROW_TTL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(7 * 24 * 3_600_000),
  ESCROW_EXPIRY_ACTION: z.enum(['refund', 'release']).default('refund'),
  PRIORITY_FEE_CAP_MICROLAMPORTS: bigintString.optional(),
  /** Minimum compute-unit price per level Min,Low,Medium,High,VeryHigh (micro-lamports). */
  PRIORITY_FEE_FLOORS_MICROLAMPORTS: z
    .string()
    .regex(/^\d+(,\d+){4}$/, 'must be five comma-separated whole numbers (Min,Low,Medium,High,VeryHigh)')
    .default('0,100,1000,10000,100000')
    .transform((v) => v.split(',').map((n) => BigInt(n))),
  /** An idempotency claim in progress this long belongs to a dead process; the same request may take it over. */
  IDEMPOTENCY_ABANDON_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  WORKER_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  TREASURY_AIRDROP_SOL: z.coerce.number().int().min(0).max(1_000_000).default(1_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Swaps (issue 5): pools, aggregator and outbound webhooks, shared by server and worker. */
  /** Pools seeded on the localnet at boot, "<reserve A>:<reserve B>" in whole units (issue 5). */
  POOL_NATIVE_STABLE_SEED: z
    .string()
    .regex(/^\d+(\.\d+)?:\d+(\.\d+)?$/, 'must be "<amount>:<amount>"')
    .default('1000:150000'),
  POOL_NATIVE_PROJECT_SEED: z
    .string()
    .regex(/^\d+(\.\d+)?:\d+(\.\d+)?$/, 'must be "<amount>:<amount>"')
    .default('1000:1000000'),
  POOL_STABLE_PROJECT_SEED: z
    .string()
    .regex(/^\d+(\.\d+)?:\d+(\.\d+)?$/, 'must be "<amount>:<amount>"')
    .default('150000:1000000'),
  POOL_FEE_BPS: z.coerce.number().int().min(0).max(1_000).default(30),
  /** SOL each pool authority holds beyond its reserves for the fees and rent of firm-quote swaps. */
  POOL_FEE_BUFFER_SOL: z.coerce.number().int().min(0).max(1_000_000).default(10),
  SWAP_QUOTE_TTL_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
  /** `local` routes over the project's pools (embedded default); `jupiter` calls Jupiter's Swap API. */
  AGGREGATOR: z.enum(['local', 'jupiter']).default('local'),
  JUPITER_BASE_URL: z.string().url().default('https://lite-api.jup.ag/swap/v1'),
  JUPITER_API_KEY: z.string().optional(),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(1_000),
});

export type CoreConfig = z.infer<typeof CoreConfigSchema>;

/** Parses the environment once; a bad value stops the process with a message naming the variable. */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.infer<S> {
  const result = schema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
