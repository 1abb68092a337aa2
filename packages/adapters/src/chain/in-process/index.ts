import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import type { PublicKey as Web3PublicKey } from '@solana/web3.js';
import {
  assembleTransaction,
  type ChainPort,
  type DomainError,
  domainError,
  type NftMetadata,
  type PublicKey,
} from '@token-actions/core';
import { errAsync, ok, okAsync, ResultAsync } from 'neverthrow';
import { randomSigner } from '../shared/ed25519.js';
import type { Outcome } from '../shared/intents.js';
import { toKey } from '../shared/intents.js';
import { decodeNftMint } from '../shared/nft.js';
import { type PrepareReads, prepareTransaction } from '../shared/prepare.js';
import { checkFeeAccounts, checkStatusBatch, tokenAccountOf, tokensHeld } from '../shared/reads.js';
import type { EngineRejection, LocalnetEngine } from './engine.js';

export type { EngineAccount, EngineRejection, EngineSimulation, LocalnetEngine } from './engine.js';

function unavailable(what: string, cause: unknown): DomainError {
  return domainError('CHAIN_UNAVAILABLE', `localnet ${what} failed`, { cause });
}

/** Runs a body at once (the localnet answers synchronously); a throw becomes CHAIN_UNAVAILABLE. */
function run<T>(what: string, body: () => Outcome<T> | Promise<Outcome<T>>): ResultAsync<T, DomainError> {
  let outcome: Outcome<T> | Promise<Outcome<T>>;
  try {
    outcome = body();
  } catch (cause) {
    return errAsync(unavailable(what, cause));
  }
  if (outcome instanceof Promise) {
    return ResultAsync.fromPromise(outcome, (cause) => unavailable(what, cause)).andThen((result) => result);
  }
  return outcome.isOk() ? okAsync(outcome.value) : errAsync(outcome.error);
}

function rejected(rejection: EngineRejection): DomainError {
  return domainError(rejection.code, rejection.message, {
    context: { reason: rejection.reason, ...(rejection.err === undefined ? {} : { error: rejection.err }) },
  });
}

/**
 * A ChainPort over a localnet in the same process: the same preparation as the `rpc` adapter, with
 * the localnet's own calls in place of JSON-RPC over HTTP (no encoding, no network).
 */
export function createInProcessChain(localnet: LocalnetEngine): ChainPort {
  let prepareCount = 0;
  const reads: PrepareReads = {
    blockhash: () => localnet.latestBlockhash(),
    account: async (address) => localnet.account(address),
    simulate: async (message, signatures, feePayer) => {
      const unsigned = assembleTransaction(
        message,
        Array.from({ length: signatures }, () => new Uint8Array(64)),
      );
      const simulated = localnet.simulateWire(unsigned, feePayer ? { accounts: [feePayer.toBase58()] } : {});
      if (simulated.isErr()) throw new Error(simulated.error.message);
      const { err, logs, unitsConsumed, accounts } = simulated.value;
      return {
        err,
        logs,
        unitsConsumed,
        ...(feePayer ? { feePayerLamports: accounts?.[0]?.lamports ?? 0n } : {}),
      };
    },
    rentExemption: (space) => localnet.minimumBalance(space),
    // The localnet's blockhash is always its current one, and its accounts are read in memory: a
    // SOL transfer of a shape already simulated is sized without executing it a second time.
    knownUnits: new Map(),
  };

  const nftOwner = (mint: Web3PublicKey): PublicKey | undefined =>
    localnet.nftOwner(mint.toBase58()) as PublicKey | undefined;

  return {
    get cluster() {
      return { name: 'localnet' as const, rpcUrl: localnet.rpcUrl };
    },
    prepare: (intent, options) =>
      run('prepare', () => prepareTransaction(reads, intent, options, () => prepareCount++, randomSigner)),
    send: (wire) => run('send', () => localnet.sendWire(wire).then((sent) => sent.mapErr(rejected))),
    getStatuses: (ids) =>
      run('getStatuses', () => checkStatusBatch(ids).map((valid) => localnet.statuses(valid))),
    getBlockHeight: () => okAsync(localnet.slot()),
    getBalance: (owner, currency) =>
      run('getBalance', () =>
        toKey(owner, 'owner').andThen((ownerKey) => {
          if (currency.mint === undefined) return ok(localnet.lamports(owner));
          return tokenAccountOf(ownerKey, currency).map(({ address, program }) =>
            tokensHeld(localnet.account(address.toBase58()), program),
          );
        }),
      ),
    getRecentPrioritizationFees: (accounts) =>
      run('getRecentPrioritizationFees', () =>
        checkFeeAccounts(accounts).map(() => localnet.prioritizationFees(accounts)),
      ),
    getNft: (mint) =>
      run('getNft', () =>
        toKey(mint, 'mint').map((mintKey): NftMetadata | null => {
          const account = localnet.account(mint);
          if (!account || account.owner !== TOKEN_2022_PROGRAM_ID.toBase58()) return null;
          const decoded = decodeNftMint(mintKey, account);
          if (!decoded) return null;
          const owner = nftOwner(mintKey);
          return { ...decoded, ...(owner ? { owner } : {}) };
        }),
      ),
    airdrop: (to, currency, amount) => run('airdrop', () => localnet.airdrop(to, currency, amount)),
  };
}
