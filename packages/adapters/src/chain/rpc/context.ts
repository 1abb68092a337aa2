import type { Commitment, Connection } from '@solana/web3.js';
import type { ChainCommitment, ClusterInfo, Currencies } from '@token-actions/core';
import type { NewSigner } from '../shared/signer.js';

export interface RpcChainConfig {
  /** The JSON-RPC endpoint the adapter talks to. */
  readonly rpcUrl: string;
  readonly cluster: ClusterInfo['name'];
  /** SOL, the stablecoin and the project token, with their mints (see `discoverRpcCurrencies`). */
  readonly currencies: Currencies;
  /** Commitment of reads (balances, block height, NFTs); default `confirmed`. Blockhashes are
   * always fetched at `confirmed`, simulations run at `processed`. */
  readonly commitment?: ChainCommitment;
  /** The URL reported in `cluster.rpcUrl` (explorer links, wallets); default `rpcUrl`. */
  readonly publicRpcUrl?: string;
  /** How long a fetched blockhash is reused for new transactions; default 1,000 ms. */
  readonly blockhashCacheMs?: number;
  /** Mint test tokens through the localnet's `localnet_mintTo` method; default: cluster is localnet. */
  readonly localnetFaucet?: boolean;
  /** How long `airdrop` waits for its transaction to be seen; default 30 s. */
  readonly airdropTimeoutMs?: number;
  /** HTTP client; default: web3.js's own for `Connection`, `globalThis.fetch` for bare calls. */
  readonly fetch?: typeof fetch;
  /** Fresh keys (NFT mints); default WebCrypto, which edge runtimes provide too. */
  readonly newSigner?: NewSigner;
}

/** What the rpc adapter's parts share: the config, the connection and the bare HTTP client. */
export interface RpcContext {
  readonly config: RpcChainConfig;
  readonly connection: Connection;
  readonly fetchFn: typeof fetch;
  readonly commitment: Commitment;
}

/** Messages (or failures) remembered per transaction id; the oldest is dropped past this many. */
export const REMEMBERED = 10_000;
