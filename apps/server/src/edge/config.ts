import { z } from 'zod';
import { ServerConfigSchema } from '../config.js';

/**
 * The worker's bindings: the server's variables minus what only a Node process has (data dir,
 * embedded localnet, listener, Redis, in-process loops). The database, the cluster and the master
 * key are required: an isolate has no disk to keep a generated key or an embedded chain on.
 */
export const EdgeConfigSchema = ServerConfigSchema.omit({
  DATA_DIR: true,
  LOCALNET_RPC_PORT: true,
  LOCALNET_RPC: true,
  SLOT_INTERVAL_MS: true,
  FINALITY_DEPTH_SLOTS: true,
  PORT: true,
  HOST: true,
  RUN_WORKER: true,
  REDIS_URL: true,
}).extend({
  DATABASE_URL: z.string().url(),
  SOLANA_RPC_URL: z.string().url(),
  KEYSTORE_MASTER_KEY: ServerConfigSchema.shape.KEYSTORE_MASTER_KEY.refine(
    (key: Uint8Array | undefined) => key !== undefined,
    {
      message: 'is required on the edge',
    },
  ),
});

export type EdgeConfig = z.infer<typeof EdgeConfigSchema>;
