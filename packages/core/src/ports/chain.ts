import type { ResultAsync } from 'neverthrow';
import type { Currency } from '../domain/currency.js';
import type { PublicKey, Signature } from '../domain/public-key.js';
import type { DomainError } from '../errors.js';

/** Move `amount` base units of `currency` from the wallet `from` to the wallet `to`.
 * For SPL currencies the adapter uses both owners' associated token accounts and creates the
 * recipient's idempotently (rent paid by the fee payer). */
export interface TransferIntent {
  readonly kind: 'transfer';
  readonly currency: Currency;
  readonly from: PublicKey;
  readonly to: PublicKey;
  readonly amount: bigint;
}

/** Mint a Token-2022 NFT (decimals 0, supply 1) with metadata-pointer + token-metadata extensions,
 * then remove the mint authority. `authority` is the update authority and signs. */
export interface MintNftIntent {
  readonly kind: 'mint_nft';
  readonly authority: PublicKey;
  readonly owner: PublicKey;
  readonly name: string;
  readonly symbol: string;
  readonly uri: string;
  /** A wallet that must sign the transaction without paying or owning anything in it (a Solana
   * Action's `account` receiving the NFT): the adapter adds a signed memo naming it. */
  readonly cosigner?: PublicKey;
}

/** One leg of a `transfers` intent: `amount` base units of `currency` from the wallet `from` to `to`. */
export interface TransferLeg {
  readonly currency: Currency;
  readonly from: PublicKey;
  readonly to: PublicKey;
  readonly amount: bigint;
}

/** Several transfers in one atomic transaction (all land or none). Every `from` signs; for SPL legs
 * the recipients' associated token accounts are created idempotently, rent paid by the fee payer
 * (`PrepareOptions.feePayer`). A pool swap is two legs: user -> pool vault, pool vault -> user. */
export interface TransfersIntent {
  readonly kind: 'transfers';
  readonly legs: readonly TransferLeg[];
}

export type ChainIntent = TransferIntent | MintNftIntent | TransfersIntent;

export interface PrepareOptions {
  readonly feePayer: PublicKey;
  /** Micro-lamports per compute unit. */
  readonly computeUnitPrice: bigint;
}

export interface PreparedTransaction {
  /** The compiled message every signer signs. */
  readonly message: Uint8Array;
  /** The message's signers in order; signers[0] is the fee payer, whose signature is the transaction id. */
  readonly signers: readonly PublicKey[];
  /** Signatures the adapter made with keys of its own (an NFT's fresh mint key), by signer. */
  readonly presigned: Readonly<Record<string, Uint8Array>>;
  readonly blockhash: string;
  readonly lastValidBlockHeight: bigint;
  readonly computeUnitLimit: number;
  readonly computeUnitPrice: bigint;
  /** Base fee (5000 lamports a signature) plus the priority fee, in lamports. */
  readonly feeLamports: bigint;
  /** The writable accounts of the message (used for fee estimation and reservations). */
  readonly writableAccounts: readonly PublicKey[];
  /** For mint_nft: the new mint's address. */
  readonly mint?: PublicKey;
}

export type ChainCommitment = 'processed' | 'confirmed' | 'finalized';

export interface ChainStatus {
  readonly commitment: ChainCommitment;
  readonly slot: bigint;
  /** Set when the transaction landed with an error (program error, insufficient funds, ...). */
  readonly error?: string;
}

export interface ClusterInfo {
  readonly name: 'localnet' | 'devnet' | 'testnet' | 'mainnet-beta' | 'custom';
  /** The JSON-RPC URL a wallet or explorer reaches this cluster at. */
  readonly rpcUrl: string;
}

export interface NftMetadata {
  readonly mint: PublicKey;
  readonly name: string;
  readonly symbol: string;
  readonly uri: string;
  readonly updateAuthority?: PublicKey;
  readonly supply: bigint;
  readonly decimals: number;
  readonly mintAuthority?: PublicKey;
  readonly owner?: PublicKey;
}

export interface PrioritizationFee {
  readonly slot: bigint;
  /** Micro-lamports per compute unit. */
  readonly fee: bigint;
}

export interface ChainPort {
  readonly cluster: ClusterInfo;
  /** Builds, simulates (for the compute-unit limit) and compiles a transaction.
   * Fails with SIMULATION_FAILED or INSUFFICIENT_FUNDS when the simulation fails. */
  prepare(intent: ChainIntent, options: PrepareOptions): ResultAsync<PreparedTransaction, DomainError>;
  /** Sends signed wire bytes. Sending the same signed transaction again never executes it twice. */
  send(wire: Uint8Array): ResultAsync<Signature, DomainError>;
  /** Statuses for up to 256 ids, in order; null for a transaction the chain has not seen land. */
  getStatuses(ids: readonly Signature[]): ResultAsync<readonly (ChainStatus | null)[], DomainError>;
  getBlockHeight(): ResultAsync<bigint, DomainError>;
  /** Balance of a wallet in base units; 0 when the account (or token account) does not exist. */
  getBalance(owner: PublicKey, currency: Currency): ResultAsync<bigint, DomainError>;
  getRecentPrioritizationFees(
    accounts: readonly PublicKey[],
  ): ResultAsync<readonly PrioritizationFee[], DomainError>;
  getNft(mint: PublicKey): ResultAsync<NftMetadata | null, DomainError>;
  /** Localnet only: credit a wallet (SOL by airdrop, tokens by minting). NOT_SUPPORTED elsewhere. */
  airdrop(to: PublicKey, currency: Currency, amount: bigint): ResultAsync<Signature, DomainError>;
}
