import type {
  ChainStatus,
  Currency,
  DomainError,
  PrioritizationFee,
  Signature,
  TransactionErrorJson,
} from '@token-actions/core';
import type { Result } from 'neverthrow';

/**
 * What the in-process chain adapter needs of an embedded localnet, declared here so adapters do
 * not depend on the localnet package: `@token-actions/localnet`'s `createLocalnet` returns an
 * object of this shape, and the composition root hands it over.
 */
export interface LocalnetEngine {
  /** The URL the localnet is reached at (explorer links, wallets). */
  readonly rpcUrl: string;
  slot(): bigint;
  /** The current blockhash, recorded as issued so transactions signed with it land. */
  latestBlockhash(): Promise<{ readonly blockhash: string; readonly lastValidBlockHeight: bigint }>;
  simulateWire(
    wire: Uint8Array,
    options: { readonly sigVerify?: boolean; readonly accounts?: readonly string[] },
  ): Result<EngineSimulation, EngineRejection>;
  /** Lands signed wire bytes; acknowledged only once durable. */
  sendWire(wire: Uint8Array): Promise<Result<Signature, EngineRejection>>;
  statuses(ids: readonly string[]): readonly (ChainStatus | null)[];
  account(address: string): EngineAccount | null;
  lamports(address: string): bigint;
  minimumBalance(space: number): bigint;
  prioritizationFees(accounts: readonly string[]): readonly PrioritizationFee[];
  /** The owner an NFT was minted to, while it still holds it. */
  nftOwner(mint: string): string | undefined;
  airdrop(to: string, currency: Currency, amount: bigint): Result<Signature, DomainError>;
}

export interface EngineAccount {
  readonly lamports: bigint;
  /** Base58 address of the owning program. */
  readonly owner: string;
  readonly data: Uint8Array;
}

export interface EngineSimulation {
  readonly err: TransactionErrorJson | null;
  readonly logs: readonly string[];
  readonly unitsConsumed: bigint;
  readonly accounts?: readonly (EngineAccount | null)[];
}

/** Why wire bytes were not executed. */
export interface EngineRejection {
  readonly reason: string;
  readonly code: 'INVALID_INPUT' | 'INSUFFICIENT_FUNDS' | 'CHAIN_UNAVAILABLE';
  readonly message: string;
  readonly err?: TransactionErrorJson;
}
