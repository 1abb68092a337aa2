import { CoreConfigSchema } from '@token-actions/runtime';
import { z } from 'zod';

/**
 * The standalone worker's environment: the shared fragments, with the two that the embedded
 * default leaves optional made required (one process must own an in-process chain and an embedded database).
 */
export const WorkerConfigSchema = CoreConfigSchema.extend({
  DATABASE_URL: z.string().url({ message: 'the standalone worker needs a shared PostgreSQL (DATABASE_URL)' }),
  SOLANA_RPC_URL: z
    .string()
    .url({ message: 'the standalone worker needs the chain over JSON-RPC (SOLANA_RPC_URL)' }),
  WORKER_ID: z.string().min(1).max(128).optional(),
});

export type WorkerConfig = z.infer<typeof WorkerConfigSchema>;
