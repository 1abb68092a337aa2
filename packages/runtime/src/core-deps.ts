import {
  createEncryptedKeystore,
  createFeeOracle,
  createHmacMac,
  deriveKey,
  type KeySigner,
  type SqlClient,
} from '@token-actions/adapters/edge';
import type {
  ActionDeps,
  ChainPort,
  ClockPort,
  Currencies,
  IdsPort,
  PublicKey,
  StorePort,
} from '@token-actions/core';
import type { ChainConfig, PolicyConfig } from './config/fragments.js';

// The use-cases' ports with no file system, embedded database or embedded chain in them, so
// every process shape (Node server, worker, edge isolate) wires them here.

export const systemClock: ClockPort = { now: () => new Date() };

const ID_BYTES = 16;
const ID_POOL_BYTES = 4_096;
let idPool = Buffer.alloc(0);
let idAt = 0;

/**
 * Ids of 16 random bytes, cut from a pool the CSPRNG fills 256 ids at a time (asking it for 16
 * bytes per id was 1% of a firm quote's CPU). Every byte serves one id only: the pool is filled
 * again, never reused.
 */
export const randomIds: IdsPort = {
  next(prefix) {
    if (idAt + ID_BYTES > idPool.length) {
      idPool = Buffer.from(crypto.getRandomValues(new Uint8Array(ID_POOL_BYTES)).buffer);
      idAt = 0;
    }
    const id = idPool.toString('base64url', idAt, idAt + ID_BYTES);
    idAt += ID_BYTES;
    return `${prefix}_${id}`;
  },
};

/** Start-up only: a Result that failed here leaves the process nothing to serve with. */
export function unwrapOrThrow<T>(
  r: { isErr(): boolean; value?: T; error?: { message: string } },
  what: string,
): T {
  if (r.isErr()) throw new Error(`${what}: ${r.error!.message}`);
  return r.value as T;
}

export interface WireCoreInput {
  readonly config: PolicyConfig & Pick<ChainConfig, 'TREASURY_AIRDROP_SOL'>;
  readonly sql: SqlClient;
  /** The transaction, idempotency, API-key and tenant store, already wrapped (`composeStores`). */
  readonly store: StorePort;
  readonly masterKey: Uint8Array;
  readonly chain: {
    readonly chain: ChainPort;
    readonly currencies: Currencies;
    readonly isLocalnet: boolean;
  };
  /** How managed accounts' keys sign (the keystore's WebCrypto default where omitted). */
  readonly keySigner?: KeySigner;
}

/** The use-cases' ports over a migrated database and a chain; service keys created on first use. */
export async function wireCore(input: WireCoreInput): Promise<ActionDeps> {
  const { config, sql, masterKey, store } = input;
  const { chain, currencies, isLocalnet } = input.chain;
  const clock = systemClock;
  const keystore = createEncryptedKeystore({
    sql,
    masterKey,
    clock,
    ...(input.keySigner ? { sign: input.keySigner } : {}),
  });

  const named = async (name: string) =>
    unwrapOrThrow<PublicKey>(await keystore.named(name), `service key ${name}`);
  const accounts = {
    treasury: await named('treasury'),
    escrowVault: await named('escrow-vault'),
    mintAuthority: await named('mint-authority'),
  };
  // The localnet starts empty: the treasury pays every fee, so it is funded at boot (topped up
  // after a restart, since the localnet keeps its state).
  if (isLocalnet) {
    const treasuryLamports = BigInt(config.TREASURY_AIRDROP_SOL) * 1_000_000_000n;
    await topUp(chain, currencies, accounts.treasury, treasuryLamports);
    await topUp(chain, currencies, accounts.escrowVault, 10_000_000n);
  }

  const [min, low, medium, high, veryHigh] = config.PRIORITY_FEE_FLOORS_MICROLAMPORTS;
  const fees = createFeeOracle({
    chain,
    floors: { Min: min!, Low: low!, Medium: medium!, High: high!, VeryHigh: veryHigh! },
    ...(config.PRIORITY_FEE_CAP_MICROLAMPORTS !== undefined
      ? { capMicroLamports: config.PRIORITY_FEE_CAP_MICROLAMPORTS }
      : {}),
  });

  return {
    chain,
    keystore,
    store,
    fees,
    clock,
    ids: randomIds,
    mac: createHmacMac(deriveKey(masterKey, 'preview-mac')),
    currencies,
    accounts,
    policies: {
      previewTtlMs: config.PREVIEW_TTL_MS,
      escrowTtlMs: config.ESCROW_TTL_MS,
      escrowExpiryAction: config.ESCROW_EXPIRY_ACTION,
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
