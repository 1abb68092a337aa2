import { createHmac } from 'node:crypto';
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
  loadOrCreateMasterKey,
  migrate,
  type SqlClient,
} from '@token-actions/adapters';
import type { ActionDeps, ClockPort, IdsPort, PublicKey } from '@token-actions/core';
import type { ServerConfig } from './config.js';
import type { Logger } from './logger.js';

export interface Composition {
  readonly deps: ActionDeps;
  readonly sql: SqlClient;
  readonly isLocalnet: boolean;
  readonly masterKeyGenerated: boolean;
  close(): Promise<void>;
}

/** Sub-keys for separate purposes, so one master key never serves two algorithms directly. */
export function deriveKey(master: Uint8Array, purpose: string): Uint8Array {
  return new Uint8Array(createHmac('sha256', master).update(`token-actions/${purpose}`).digest());
}

const systemClock: ClockPort = { now: () => new Date() };

export const randomIds: IdsPort = {
  next(prefix) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return `${prefix}_${Buffer.from(bytes).toString('base64url')}`;
  },
};

function unwrapOrThrow<T>(r: { isErr(): boolean; value?: T; error?: { message: string } }, what: string): T {
  if (r.isErr()) throw new Error(`${what}: ${r.error!.message}`);
  return r.value as T;
}

/** The composition root: every adapter is built here from config and passed explicitly. */
export async function compose(config: ServerConfig, logger: Logger): Promise<Composition> {
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
  const store = createPgStore(sql, { clock });
  const keystore = createEncryptedKeystore({ sql, masterKey: master.key, clock });

  const rpcUrl = `http://127.0.0.1:${config.LOCALNET_RPC_PORT}`;
  const chain = await createLiteSvmChain({
    seed: deriveKey(master.key, 'localnet-seed'),
    projectTicker: config.PROJECT_TICKER,
    slotIntervalMs: config.SLOT_INTERVAL_MS,
    finalityDepthSlots: config.FINALITY_DEPTH_SLOTS,
    rpcUrl,
  });

  const named = async (name: string) =>
    unwrapOrThrow<PublicKey>(await keystore.named(name), `service key ${name}`);
  const accounts = {
    treasury: await named('treasury'),
    escrowVault: await named('escrow-vault'),
    mintAuthority: await named('mint-authority'),
  };
  // The localnet starts empty: the treasury pays every fee, so it is funded at boot.
  chain.fund(accounts.treasury, BigInt(config.TREASURY_AIRDROP_SOL) * 1_000_000_000n);
  chain.fund(accounts.escrowVault, 10_000_000n);

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
    currencies: chain.currencies,
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
    isLocalnet: true,
    masterKeyGenerated: master.generated,
    async close() {
      chain.close();
      await sql.close();
    },
  };
}
