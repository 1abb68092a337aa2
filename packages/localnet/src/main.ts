/**
 * `pnpm localnet`: the localnet as a process of its own, serving Solana JSON-RPC for servers and
 * workers that run on the `rpc` chain adapter (SOLANA_RPC_URL). Its environment is
 * `localnetEnvSchema` (see env.ts and the README).
 *
 * Prints the RPC URL and the mints, then one line `LOCALNET_READY {json}` for scripts; serves
 * until SIGTERM or SIGINT.
 */
import { localnetEnvSchema } from './env.js';
import { createLocalnet } from './localnet.js';
import { startLocalnetRpc } from './rpc/server.js';
import { localnetSeedOf } from './seed-from-env.js';

async function main() {
  const parsed = localnetEnvSchema.safeParse(
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
  const { seed, generatedMasterKey } = localnetSeedOf(env);
  if (generatedMasterKey) {
    console.warn(`generated a new keystore master key in ${env.DATA_DIR}: the server must use the same one`);
  }

  const localnet = await createLocalnet({
    seed,
    dataDir: env.DATA_DIR,
    projectTicker: env.PROJECT_TICKER,
    slotIntervalMs: env.SLOT_INTERVAL_MS,
    finalityDepthSlots: env.FINALITY_DEPTH_SLOTS,
  });
  const rpc = await startLocalnetRpc(localnet, { port: env.LOCALNET_RPC_PORT, host: env.LOCALNET_RPC_HOST });
  localnet.setRpcUrl(rpc.url, rpc.wsUrl);
  const { stable, project } = localnet.currencies;
  process.stdout.write(
    [
      '',
      `Token Actions localnet (LiteSVM) on ${rpc.url}`,
      `  websocket:      ${rpc.wsUrl} (also on the RPC port)`,
      `  ${stable.code} mint:      ${stable.mint}`,
      `  ${project.code} mint:      ${project.mint}`,
      `  mint authority: ${localnet.mintAuthority}`,
      `  state:          ${localnet.stateDir}`,
      `  servers:        SOLANA_RPC_URL=${rpc.url} (mints are discovered through localnet_getMints)`,
      `  wallets, CLI:   solana config set --url ${rpc.url} --ws ${rpc.wsUrl}`,
      `LOCALNET_READY ${JSON.stringify({
        rpcUrl: rpc.url,
        wsUrl: rpc.wsUrl,
        usdcMint: stable.mint,
        projectMint: project.mint,
        projectTicker: project.code,
        mintAuthority: localnet.mintAuthority,
      })}`,
      '',
    ].join('\n'),
  );

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await rpc.close();
    localnet.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error('localnet failed to start:', error instanceof Error ? error.message : String(error));
  process.exit(1);
});
