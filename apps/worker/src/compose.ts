import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createEncryptedKeystore,
  createFeeOracle,
  createHmacMac,
  createLiteSvmChain,
  createPgliteClient,
  createPgStore,
  createPostgresClient,
  createRpcChain,
  deriveKey,
  discoverRpcCurrencies,
  type LocalnetRpc,
  loadOrCreateMasterKey,
  migrate,
  type SqlClient,
  startLocalnetRpc,
  withSettledTransactionCache,
} from '@token-actions/adapters';
import type {
  ActionDeps,
  ChainPort,
  ClockPort,
  ClusterInfo,
  Currencies,
  IdsPort,
  PublicKey,
} from '@token-actions/core';
import type { CoreConfig } from './config.js';
import type { LoopLogger } from './loops.js';

/** What every process running the use-cases shares: the ports, wired from config. */
export interface CoreComposition {
  readonly deps: ActionDeps;
  readonly sql: SqlClient;
  readonly isLocalnet: boolean;
  readonly masterKey: Uint8Array;
  readonly masterKeyGenerated: boolean;
  close(): Promise<void>;
}

const systemClock: ClockPort = { now: () => new Date() };

export const randomIds: IdsPort = {
  next(prefix) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return `${prefix}_${Buffer.from(bytes).toString('base64url')}`;
  },
};

export function unwrapOrThrow<T>(
  r: { isErr(): boolean; value?: T; error?: { message: string } },
  what: string,
): T {
  if (r.isErr()) throw new Error(`${what}: ${r.error!.message}`);
  return r.value as T;
}

/** The composition root shared by the server and the standalone worker. */
export async function composeCore(config: CoreConfig, logger: LoopLogger): Promise<CoreComposition> {
  await mkdir(config.DATA_DIR, { recursive: true, mode: 0o700 });
  const master = await loadOrCreateMasterKey({ dataDir: config.DATA_DIR, env: process.env });
  if (master.generated) {
    logger.warn(
      { path: master.source.kind === 'file' ? master.source.path : undefined },
      'GENERATED A NEW KEYSTORE MASTER KEY: every managed account is encrypted under it. Back it up; set KEYSTORE_MASTER_KEY in production.',
    );
  }

  const sql: SqlClient = config.DATABASE_URL
    ? createPostgresClient({ connectionString: config.DATABASE_URL })
    : await createPgliteClient({ dataDir: join(config.DATA_DIR, 'pglite') });
  await migrate(sql);

  const clock = systemClock;
  const store = withSettledTransactionCache(
    createPgStore(sql, { clock, idempotencyAbandonAfterMs: config.IDEMPOTENCY_ABANDON_MS }),
  );
  const keystore = createEncryptedKeystore({ sql, masterKey: master.key, clock });

  const composedChain = await composeChain(config, master.key, logger);
  const { chain } = composedChain;

  const named = async (name: string) =>
    unwrapOrThrow<PublicKey>(await keystore.named(name), `service key ${name}`);
  const accounts = {
    treasury: await named('treasury'),
    escrowVault: await named('escrow-vault'),
    mintAuthority: await named('mint-authority'),
  };
  // The localnet starts empty: the treasury pays every fee, so it is funded at boot (topped up
  // after a restart, since the localnet keeps its state).
  if (composedChain.isLocalnet) {
    const treasuryLamports = BigInt(config.TREASURY_AIRDROP_SOL) * 1_000_000_000n;
    await topUp(chain, composedChain.currencies, accounts.treasury, treasuryLamports);
    await topUp(chain, composedChain.currencies, accounts.escrowVault, 10_000_000n);
  }

  const [min, low, medium, high, veryHigh] = config.PRIORITY_FEE_FLOORS_MICROLAMPORTS;
  const fees = createFeeOracle({
    chain,
    floors: { Min: min!, Low: low!, Medium: medium!, High: high!, VeryHigh: veryHigh! },
    ...(config.PRIORITY_FEE_CAP_MICROLAMPORTS !== undefined
      ? { capMicroLamports: config.PRIORITY_FEE_CAP_MICROLAMPORTS }
      : {}),
  });

  const deps: ActionDeps = {
    chain,
    keystore,
    store,
    fees,
    clock,
    ids: randomIds,
    mac: createHmacMac(deriveKey(master.key, 'preview-mac')),
    currencies: composedChain.currencies,
    accounts,
    policies: {
      previewTtlMs: config.PREVIEW_TTL_MS,
      escrowTtlMs: config.ESCROW_TTL_MS,
      escrowExpiryAction: config.ESCROW_EXPIRY_ACTION,
    },
  };

  return {
    deps,
    sql,
    isLocalnet: composedChain.isLocalnet,
    masterKey: master.key,
    masterKeyGenerated: master.generated,
    async close() {
      await composedChain.close();
      await sql.close();
    },
  };
}

interface ComposedChain {
  readonly chain: ChainPort;
  readonly currencies: Currencies;
  readonly isLocalnet: boolean;
  close(): Promise<void>;
}

function clusterOf(url: string): ClusterInfo['name'] {
  const { hostname } = new URL(url);
  if (/devnet/.test(hostname)) return 'devnet';
  if (/testnet/.test(hostname)) return 'testnet';
  if (/mainnet/.test(hostname)) return 'mainnet-beta';
  if (hostname === 'localhost' || hostname === '[::1]' || hostname.startsWith('127.')) return 'localnet';
  return 'custom';
}

/**
 * The chain: the `rpc` adapter when SOLANA_RPC_URL is set (mints from USDC_MINT / PROJECT_MINT, or
 * asked of a token-actions localnet), else the embedded LiteSVM localnet, keeping its state under
 * DATA_DIR/localnet and serving JSON-RPC on LOCALNET_RPC_PORT.
 */
async function composeChain(
  config: CoreConfig,
  masterKey: Uint8Array,
  logger: LoopLogger,
): Promise<ComposedChain> {
  if (config.SOLANA_RPC_URL) {
    const rpcUrl = config.SOLANA_RPC_URL;
    const discovered = await discoverRpcCurrencies({
      rpcUrl,
      ...(config.USDC_MINT ? { stableMint: config.USDC_MINT } : {}),
      ...(config.PROJECT_MINT ? { projectMint: config.PROJECT_MINT } : {}),
      projectTicker: config.PROJECT_TICKER,
    });
    const cluster = config.SOLANA_CLUSTER ?? (discovered.localnet ? 'localnet' : clusterOf(rpcUrl));
    const chain = createRpcChain({ rpcUrl, cluster, currencies: discovered.currencies });
    return {
      chain,
      currencies: discovered.currencies,
      isLocalnet: cluster === 'localnet',
      close: async () => {},
    };
  }

  const chain = await createLiteSvmChain({
    seed: deriveKey(masterKey, 'localnet-seed'),
    projectTicker: config.PROJECT_TICKER,
    slotIntervalMs: config.SLOT_INTERVAL_MS,
    finalityDepthSlots: config.FINALITY_DEPTH_SLOTS,
    dataDir: config.DATA_DIR,
    rpcUrl: `http://127.0.0.1:${config.LOCALNET_RPC_PORT}`,
  });
  let rpc: LocalnetRpc | undefined;
  if (config.LOCALNET_RPC) {
    const takeFreePort = (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') throw error;
      // Another localnet (or server) holds the port: serve on a free one rather than not at all.
      logger.warn({ port: config.LOCALNET_RPC_PORT }, 'LOCALNET_RPC_PORT in use: JSON-RPC on a free port');
      return startLocalnetRpc(chain, { port: 0 });
    };
    try {
      rpc = await startLocalnetRpc(chain, { port: config.LOCALNET_RPC_PORT }).catch(takeFreePort);
    } catch (error) {
      chain.close();
      throw error;
    }
    chain.setRpcUrl(rpc.url);
    logger.info({ rpcUrl: rpc.url, stateDir: chain.stateDir }, 'localnet JSON-RPC listening');
  }
  return {
    chain,
    currencies: chain.currencies,
    isLocalnet: true,
    async close() {
      await rpc?.close();
      chain.close();
    },
  };
}

/** Airdrops up to `target` lamports when an account holds less than half of it. */
async function topUp(
  chain: ChainPort,
  currencies: Currencies,
  owner: PublicKey,
  target: bigint,
): Promise<void> {
  const held = await chain.getBalance(owner, currencies.native);
  const balance = unwrapOrThrow<bigint>(held, `balance of ${owner}`);
  if (balance * 2n >= target) return;
  unwrapOrThrow(await chain.airdrop(owner, currencies.native, target - balance), `funding ${owner}`);
}
