/**
 * `pnpm localnet`: the LiteSVM localnet as a process of its own, serving Solana JSON-RPC for
 * servers and workers that run on the `rpc` chain adapter (SOLANA_RPC_URL).
 *
 * Environment (all optional):
 *   DATA_DIR              state directory; the chain lives in $DATA_DIR/localnet (default .data)
 *   LOCALNET_RPC_PORT     JSON-RPC port (default 8899; 0 picks a free one)
 *   LOCALNET_RPC_HOST     interface to bind (default 127.0.0.1)
 *   PROJECT_TICKER        project token ticker (default PROJ)
 *   SLOT_INTERVAL_MS      milliseconds per slot (default 400)
 *   FINALITY_DEPTH_SLOTS  slots until finalized (default 32)
 *   LOCALNET_SEED         32 bytes (64 hex digits or base64) the localnet's own keys derive from;
 *                         otherwise derived from the keystore master key (KEYSTORE_MASTER_KEY or
 *                         $DATA_DIR/master.key) exactly as the server derives it, so the embedded
 *                         chain and this process have the same mints.
 *
 * Prints the RPC URL and the mints, then one line `LOCALNET_READY {json}` for scripts; serves
 * until SIGTERM or SIGINT.
 */
import { z } from 'zod';
import { deriveKey, loadOrCreateMasterKey, parseMasterKey } from '../keystore/index.js';
import { createLiteSvmChain } from './litesvm/index.js';
import { startLocalnetRpc } from './litesvm/rpc-server.js';

const EnvSchema = z.object({
  DATA_DIR: z.string().min(1).default('.data'),
  LOCALNET_RPC_PORT: z.coerce.number().int().min(0).max(65535).default(8899),
  LOCALNET_RPC_HOST: z.string().min(1).default('127.0.0.1'),
  PROJECT_TICKER: z
    .string()
    .regex(/^[A-Z][A-Z0-9]{1,9}$/, 'must be 2-10 upper-case letters or digits')
    .default('PROJ'),
  SLOT_INTERVAL_MS: z.coerce.number().int().min(10).max(10_000).default(400),
  FINALITY_DEPTH_SLOTS: z.coerce.number().int().min(1).max(64).default(32),
  LOCALNET_SEED: z.string().optional(),
});

async function main() {
  const parsed = EnvSchema.safeParse(
    Object.fromEntries(
      Object.entries(process.env).filter(([, value]) => value !== undefined && value !== ''),
    ),
  );
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      console.error(`invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
    process.exit(2);
  }
  const env = parsed.data;

  let seed: Uint8Array;
  if (env.LOCALNET_SEED !== undefined) {
    const given = parseMasterKey(env.LOCALNET_SEED);
    if (!given) {
      console.error('invalid configuration: LOCALNET_SEED must be 32 bytes as 64 hex digits or base64');
      process.exit(2);
    }
    seed = given;
  } else {
    const master = await loadOrCreateMasterKey({ dataDir: env.DATA_DIR, env: process.env });
    if (master.generated) {
      console.warn(
        `generated a new keystore master key in ${env.DATA_DIR}: the server must use the same one`,
      );
    }
    // The same derivation as the server's embedded localnet, so both have the same mints.
    seed = deriveKey(master.key, 'localnet-seed');
  }

  const chain = await createLiteSvmChain({
    seed,
    dataDir: env.DATA_DIR,
    projectTicker: env.PROJECT_TICKER,
    slotIntervalMs: env.SLOT_INTERVAL_MS,
    finalityDepthSlots: env.FINALITY_DEPTH_SLOTS,
  });
  const rpc = await startLocalnetRpc(chain, { port: env.LOCALNET_RPC_PORT, host: env.LOCALNET_RPC_HOST });
  chain.setRpcUrl(rpc.url);
  const { stable, project } = chain.currencies;
  process.stdout.write(
    [
      '',
      `Token Actions localnet (LiteSVM) on ${rpc.url}`,
      `  ${stable.code} mint:      ${stable.mint}`,
      `  ${project.code} mint:      ${project.mint}`,
      `  mint authority: ${chain.mintAuthority}`,
      `  state:          ${chain.stateDir}`,
      `  servers:        SOLANA_RPC_URL=${rpc.url} (mints are discovered through localnet_getMints)`,
      `LOCALNET_READY ${JSON.stringify({
        rpcUrl: rpc.url,
        usdcMint: stable.mint,
        projectMint: project.mint,
        projectTicker: project.code,
        mintAuthority: chain.mintAuthority,
      })}`,
      '',
    ].join('\n'),
  );

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await rpc.close();
    chain.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error('localnet failed to start:', error instanceof Error ? error.message : String(error));
  process.exit(1);
});
