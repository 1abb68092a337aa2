import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { type AccountInfo, Connection, type PublicKey as Web3PublicKey } from '@solana/web3.js';
import {
  type ChainPort,
  type ClusterInfo,
  type Currency,
  type DomainError,
  domainError,
  type NftMetadata,
  type ParsedMessage,
  type PublicKey,
  Recent,
} from '@token-actions/core';
import { err, ok, ResultAsync } from 'neverthrow';
import { randomWebSigner } from '../shared/ed25519-web.js';
import { type Outcome, toKey, tokenAccountOwner } from '../shared/intents.js';
import { decodeNftMint } from '../shared/nft.js';
import { prepareTransaction } from '../shared/prepare.js';
import { checkFeeAccounts, tokenAccountOf, tokensHeld } from '../shared/reads.js';
import { rpcAirdrop } from './airdrop.js';
import { REMEMBERED, type RpcChainConfig, type RpcContext } from './context.js';
import { callJsonRpc, quoteValue } from './json-rpc.js';
import { rpcPrepareReads } from './reads.js';
import { rpcSend } from './send.js';
import { rpcStatuses } from './statuses.js';

export type { RpcChainConfig } from './context.js';

function unavailable(what: string, cause: unknown): DomainError {
  const detail = cause instanceof Error ? cause.message.split('\n')[0]!.slice(0, 200) : undefined;
  return domainError('CHAIN_UNAVAILABLE', `${what} failed${detail ? `: ${detail}` : ''}`, { cause });
}

/** Runs an async body; a throw (network, HTTP, unexpected RPC answer) becomes CHAIN_UNAVAILABLE. */
function attempt<T>(what: string, body: () => Promise<Outcome<T>>): ResultAsync<T, DomainError> {
  return ResultAsync.fromPromise(body(), (cause) => unavailable(what, cause)).andThen((outcome) => outcome);
}

/**
 * A ChainPort over `@solana/web3.js` v1 `Connection`, for any cluster: the localnet's JSON-RPC,
 * devnet, testnet or mainnet. Transactions are prepared exactly as the in-process adapter prepares
 * them (`prepareTransaction`), with JSON-RPC as the transport:
 *
 * - prepare: blockhash from `getLatestBlockhash('confirmed')` (cached `blockhashCacheMs`), the
 *   sender's token account read first, then `simulateTransaction` (sigVerify off, at `processed`).
 * - send: `sendRawTransaction(wire, { skipPreflight: true, maxRetries: 0 })`; the caller rebroadcasts.
 * - statuses: `getSignatureStatuses` with `searchTransactionHistory` (see `rpcStatuses`).
 * - airdrop: see `rpcAirdrop`.
 * - lamport balances are read with a bare `getBalance` call that keeps u64 values exact (web3.js
 *   would pass them through a double).
 */
export function createRpcChain(config: RpcChainConfig): ChainPort {
  const commitment = config.commitment ?? 'confirmed';
  const newSigner = config.newSigner ?? randomWebSigner;
  const connection = new Connection(config.rpcUrl, {
    commitment,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });
  const context: RpcContext = { config, connection, fetchFn: config.fetch ?? globalThis.fetch, commitment };
  const cluster: ClusterInfo = { name: config.cluster, rpcUrl: config.publicRpcUrl ?? config.rpcUrl };
  const reads = rpcPrepareReads(context);
  /** Messages this adapter sent, to name the failing program when a status arrives without logs. */
  const sentMessages = new Recent<string, ParsedMessage>(REMEMBERED);
  const send = rpcSend(context, sentMessages);
  const getStatuses = rpcStatuses(context, sentMessages);
  const airdrop = rpcAirdrop(context);
  let prepareCount = 0;

  const getBalance = async (owner: PublicKey, currency: Currency): Promise<Outcome<bigint>> => {
    const ownerKey = toKey(owner, 'owner');
    if (ownerKey.isErr()) return err(ownerKey.error);
    if (currency.mint === undefined) {
      const params = [owner, { commitment }];
      const result = (await callJsonRpc(
        context.fetchFn,
        config.rpcUrl,
        'getBalance',
        params,
        quoteValue,
      )) as {
        value: string | number;
      };
      return ok(BigInt(result.value));
    }
    const tokenAccount = tokenAccountOf(ownerKey.value, currency);
    if (tokenAccount.isErr()) return err(tokenAccount.error);
    const { address, program } = tokenAccount.value;
    const account = await connection.getAccountInfo(address, commitment);
    return ok(tokensHeld(account && { owner: account.owner.toBase58(), data: account.data }, program));
  };

  const nftOwner = async (mint: Web3PublicKey): Promise<PublicKey | undefined> => {
    let holders: { address: Web3PublicKey; amount: string }[];
    try {
      holders = (await connection.getTokenLargestAccounts(mint, commitment)).value;
    } catch {
      // Some providers restrict this method; the NFT is still reported, without its owner.
      return undefined;
    }
    const holder = holders.find((entry) => entry.amount !== '0');
    if (!holder) return undefined;
    const account = await connection.getAccountInfo(holder.address, commitment);
    const owner = account ? tokenAccountOwner(account.data) : undefined;
    return owner as PublicKey | undefined;
  };

  const getNft = async (mintAddress: PublicKey): Promise<Outcome<NftMetadata | null>> => {
    const mintKey = toKey(mintAddress, 'mint');
    if (mintKey.isErr()) return err(mintKey.error);
    const account: AccountInfo<Buffer> | null = await connection.getAccountInfo(mintKey.value, commitment);
    if (!account?.owner.equals(TOKEN_2022_PROGRAM_ID)) return ok(null);
    const decoded = decodeNftMint(mintKey.value, account);
    if (!decoded) return ok(null);
    const owner = await nftOwner(mintKey.value);
    return ok({ ...decoded, ...(owner ? { owner } : {}) });
  };

  return {
    cluster,
    prepare: (intent, options) =>
      attempt('prepare', () => prepareTransaction(reads, intent, options, () => prepareCount++, newSigner)),
    send: (wire) => attempt('send', () => send(wire)),
    getStatuses: (ids) => attempt('getStatuses', () => getStatuses(ids)),
    getBlockHeight: () =>
      attempt('getBlockHeight', async () => ok(BigInt(await connection.getBlockHeight(commitment)))),
    getBalance: (owner, currency) => attempt('getBalance', () => getBalance(owner, currency)),
    getRecentPrioritizationFees: (accounts) =>
      attempt('getRecentPrioritizationFees', async () => {
        const keys = checkFeeAccounts(accounts);
        if (keys.isErr()) return err(keys.error);
        const fees = await connection.getRecentPrioritizationFees({ lockedWritableAccounts: keys.value });
        return ok(fees.map((entry) => ({ slot: BigInt(entry.slot), fee: BigInt(entry.prioritizationFee) })));
      }),
    getNft: (mint) => attempt('getNft', () => getNft(mint)),
    airdrop: (to, currency, amount) => attempt('airdrop', () => airdrop(to, currency, amount)),
  };
}
