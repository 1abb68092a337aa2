import { VersionedMessage, VersionedTransaction, PublicKey as Web3PublicKey } from '@solana/web3.js';
import type { TransactionErrorJson } from '@token-actions/core';
import { standardRentExemption } from '../shared/intents.js';
import type { IssuedBlockhash, PrepareReads } from '../shared/prepare.js';
import type { RpcContext } from './context.js';

interface CachedBlockhash extends IssuedBlockhash {
  readonly at: number;
}

/** Preparation's reads over JSON-RPC: blockhashes at `confirmed` (cached, one request in flight),
 * accounts and simulations at `processed`. */
export function rpcPrepareReads({ config, connection }: RpcContext): PrepareReads {
  const cacheMs = config.blockhashCacheMs ?? 1_000;
  let cached: CachedBlockhash | undefined;
  let inflight: Promise<CachedBlockhash> | undefined;

  const blockhash = (fresh: boolean): Promise<CachedBlockhash> => {
    if (!fresh && cached && Date.now() - cached.at < cacheMs) return Promise.resolve(cached);
    if (inflight) return inflight;
    inflight = connection
      .getLatestBlockhash('confirmed')
      .then((value) => {
        cached = {
          blockhash: value.blockhash,
          lastValidBlockHeight: BigInt(value.lastValidBlockHeight),
          at: Date.now(),
        };
        return cached;
      })
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  };

  return {
    blockhash,
    account: async (address) => {
      const account = await connection.getAccountInfo(new Web3PublicKey(address), 'processed');
      return account
        ? { lamports: BigInt(account.lamports), owner: account.owner.toBase58(), data: account.data }
        : null;
    },
    simulate: async (message, _signatures, feePayer) => {
      const transaction = new VersionedTransaction(VersionedMessage.deserialize(message));
      const { value } = await connection.simulateTransaction(transaction, {
        sigVerify: false,
        replaceRecentBlockhash: false,
        commitment: 'processed',
        ...(feePayer ? { accounts: { encoding: 'base64', addresses: [feePayer.toBase58()] } } : {}),
      });
      return {
        err: (value.err as TransactionErrorJson | null) ?? null,
        logs: value.logs ?? [],
        unitsConsumed: BigInt(value.unitsConsumed ?? 200_000),
        ...(feePayer ? { feePayerLamports: BigInt(value.accounts?.[0]?.lamports ?? 0) } : {}),
      };
    },
    rentExemption: standardRentExemption,
    // No `knownUnits`: over JSON-RPC every transaction is simulated. Its accounts would cost a round
    // trip as the simulation does, and only the simulation tells a cached blockhash the node no
    // longer knows.
  };
}
