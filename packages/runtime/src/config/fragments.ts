import { parseMasterKey } from '@token-actions/adapters/edge';
import { z } from 'zod';

/**
 * The environment, one fragment per concern. Each app's schema is the union of the fragments it
 * needs plus its own; the fragments are parsed together, once, at start-up.
 */

export const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const bigintString = z
  .string()
  .regex(/^\d+$/, 'must be a whole number')
  .transform((v) => BigInt(v));
const poolSeed = (fallback: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?:\d+(\.\d+)?$/, 'must be "<amount>:<amount>"')
    .default(fallback);

export const LoggingConfigSchema = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** Where state lives: an embedded database under DATA_DIR, or a shared PostgreSQL. */
export const StateConfigSchema = z.object({
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z.string().url().optional(),
  /**
   * The embedded database when DATABASE_URL is unset: `postgres` (a PostgreSQL server run from
   * npm-shipped binaries under DATA_DIR/postgres) or `pglite` (PostgreSQL in WebAssembly, in this
   * process, under DATA_DIR/pglite). Unset: PGlite only for a data directory PGlite already holds
   * (so an upgrade loses nothing), else PostgreSQL.
   */
  EMBEDDED_DATABASE: z.enum(['postgres', 'pglite']).optional(),
  /** An idempotency claim in progress this long belongs to a dead process; the same request may take it over. */
  IDEMPOTENCY_ABANDON_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  /** How long a verified API key is served from memory: the bound on a revocation's delay even
   * when a change notice is lost. */
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /**
   * Each process holds a lease it renews every third of this; a key in progress under a process
   * whose lease lapsed (it crashed) is taken over at once rather than after IDEMPOTENCY_ABANDON_MS.
   */
  INSTANCE_LEASE_MS: z.coerce.number().int().min(300).max(60_000).default(3_000),
});

/**
 * The keystore master key, decoded here so a malformed one stops start-up naming the variable;
 * absent, it is read from (or generated into) DATA_DIR/master.key.
 */
export const KeysConfigSchema = z.object({
  KEYSTORE_MASTER_KEY: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return undefined;
      const key = parseMasterKey(text);
      if (!key) {
        ctx.addIssue({ code: 'custom', message: 'must be 32 bytes written as 64 hex digits or as base64' });
        return z.NEVER;
      }
      return key;
    }),
});

/** The chain: the embedded LiteSVM localnet by default, or any cluster over JSON-RPC. */
export const ChainConfigSchema = z.object({
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
  PROJECT_TICKER: z
    .string()
    .regex(/^[A-Z][A-Z0-9]{1,9}$/, 'must be 2-10 upper-case letters or digits')
    .default('PROJ'),
  SLOT_INTERVAL_MS: z.coerce.number().int().min(10).max(10_000).default(400),
  FINALITY_DEPTH_SLOTS: z.coerce.number().int().min(1).max(64).default(32),
  /** SOL the treasury is topped up to on a localnet (it pays every fee). */
  TREASURY_AIRDROP_SOL: z.coerce.number().int().min(0).max(1_000_000).default(1_000),
});

/** Lifetimes and fee policy of the use-cases. */
export const PolicyConfigSchema = z.object({
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
});

/** Swaps: pools, aggregator and outbound webhooks, shared by server and worker. */
export const SwapConfigSchema = z.object({
  /** Pools seeded on the localnet at boot, "<reserve A>:<reserve B>" in whole units. */
  POOL_NATIVE_STABLE_SEED: poolSeed('1000:150000'),
  POOL_NATIVE_PROJECT_SEED: poolSeed('1000:1000000'),
  POOL_STABLE_PROJECT_SEED: poolSeed('150000:1000000'),
  POOL_FEE_BPS: z.coerce.number().int().min(0).max(1_000).default(30),
  /** SOL each pool authority holds beyond its reserves for the fees and rent of firm-quote swaps. */
  POOL_FEE_BUFFER_SOL: z.coerce.number().int().min(0).max(1_000_000).default(10),
  SWAP_QUOTE_TTL_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
  /** Firm quotes one OAuth client may hold unexecuted at once; one more answers 429 RESERVATION_LIMIT. */
  SWAP_MAX_OPEN_QUOTES_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(20),
  /** `local` routes over the project's pools (embedded default); `jupiter` calls Jupiter's Swap API. */
  AGGREGATOR: z.enum(['local', 'jupiter']).default('local'),
  JUPITER_BASE_URL: z.string().url().default('https://lite-api.jup.ag/swap/v1'),
  JUPITER_API_KEY: z.string().optional(),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(1_000),
  /**
   * Let webhook URLs reach loopback, private and link-local addresses: local development only.
   * Off by default, on a localnet too, so a default install is not an SSRF proxy into its network.
   */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
});

/** The background loops' pace. */
export const LoopConfigSchema = z.object({
  WORKER_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
});

/** What every process that runs the use-cases needs (server and standalone worker). */
export const CoreConfigSchema = LoggingConfigSchema.extend(StateConfigSchema.shape)
  .extend(KeysConfigSchema.shape)
  .extend(ChainConfigSchema.shape)
  .extend(PolicyConfigSchema.shape)
  .extend(SwapConfigSchema.shape)
  .extend(LoopConfigSchema.shape);

export type StateConfig = z.infer<typeof StateConfigSchema>;
export type KeysConfig = z.infer<typeof KeysConfigSchema>;
export type ChainConfig = z.infer<typeof ChainConfigSchema>;
export type PolicyConfig = z.infer<typeof PolicyConfigSchema>;
export type SwapConfig = z.infer<typeof SwapConfigSchema>;
export type LoopConfig = z.infer<typeof LoopConfigSchema>;
export type CoreConfig = z.infer<typeof CoreConfigSchema>;
