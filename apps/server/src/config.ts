import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const bigintString = z
  .string()
  .regex(/^\d+$/, 'must be a whole number')
  .transform((v) => BigInt(v));

/** Environment of the server; parsed once at start-up. A bad value stops the process naming the variable. */
export const ServerConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('.data'),
  PUBLIC_BASE_URL: z.string().url().optional(),
  DATABASE_URL: z.string().url().optional(),
  LOCALNET_RPC_PORT: z.coerce.number().int().min(0).max(65535).default(8899),
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
  WORKER_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  RUN_WORKER: bool.default(true),
  TREASURY_AIRDROP_SOL: z.coerce.number().int().min(0).max(1_000_000).default(1_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .max(10_000_000)
    .default(64 * 1024),
});

export type ServerConfig = z.infer<typeof ServerConfigSchema>;

export function parseConfig(env: Record<string, string | undefined>): ServerConfig {
  const result = ServerConfigSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
