import { z } from 'zod';

/** 64 hex digits, or standard/URL-safe base64 of exactly 32 bytes. */
const KEY_32 = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}={0,1})$/;

export function parseKey32(text: string): Uint8Array | undefined {
  const value = text.trim();
  if (!KEY_32.test(value)) return undefined;
  const bytes = /^[0-9a-fA-F]{64}$/.test(value)
    ? Buffer.from(value, 'hex')
    : Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? new Uint8Array(bytes) : undefined;
}

const key32 = z
  .string()
  .refine((value) => parseKey32(value) !== undefined, 'must be 32 bytes as 64 hex digits or base64');

/**
 * The localnet's environment, as a zod object other configurations extend (`.extend(...shape)`),
 * so the variables are declared once:
 * - DATA_DIR: state directory; the chain lives in $DATA_DIR/localnet (default .data)
 * - LOCALNET_RPC_PORT: JSON-RPC port (default 8899; 0 picks a free one); the PubSub websocket
 *   listens on the port after it (and on this one)
 * - LOCALNET_RPC_HOST: interface to bind (default 127.0.0.1)
 * - PROJECT_TICKER: project token ticker (default PROJ)
 * - SLOT_INTERVAL_MS: milliseconds per slot (default 400)
 * - FINALITY_DEPTH_SLOTS: slots until finalized (default 32)
 * - LOCALNET_SEED: 32 bytes the localnet's own keys derive from; otherwise derived from the
 *   keystore master key
 * - KEYSTORE_MASTER_KEY: 32 bytes; otherwise $DATA_DIR/master.key (made on first start)
 */
export const localnetEnvSchema = z.object({
  DATA_DIR: z.string().default('.data'),
  LOCALNET_RPC_PORT: z.coerce.number().int().min(0).max(65535).default(8899),
  LOCALNET_RPC_HOST: z.string().min(1).default('127.0.0.1'),
  PROJECT_TICKER: z
    .string()
    .regex(/^[A-Z][A-Z0-9]{1,9}$/, 'must be 2-10 upper-case letters or digits')
    .default('PROJ'),
  SLOT_INTERVAL_MS: z.coerce.number().int().min(10).max(10_000).default(400),
  FINALITY_DEPTH_SLOTS: z.coerce.number().int().min(1).max(64).default(32),
  LOCALNET_SEED: key32.optional(),
  KEYSTORE_MASTER_KEY: key32.optional(),
});

export type LocalnetEnv = z.infer<typeof localnetEnvSchema>;
