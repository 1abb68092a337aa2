import { Keypair } from '@solana/web3.js';
import { encodeBase58 } from '@token-actions/core';
import type { AccountState } from '../../src/parsed/account.js';
import type {
  Commitment,
  CommitmentSlots,
  LandedTransaction,
  PubSubChainReader,
  PubSubEvents,
} from '../../src/pubsub/events.js';

/**
 * A fake event source for the pubsub service: accounts in a map, transactions landed at the current
 * slot, and a slot clock: when it moves to slot N, slot N-1 is frozen (processed), and the
 * confirmed and finalized levels trail it by 1 and 32 slots, so the three levels are apart.
 */
export interface FakeChain extends PubSubChainReader {
  readonly accounts: Map<string, AccountState>;
  readonly slot: bigint;
  /** Lands a transaction in the current slot, writing the given account states. */
  land(
    writes: ReadonlyMap<string, AccountState | undefined>,
    extra?: Partial<Pick<LandedTransaction, 'err' | 'logs' | 'accountKeys' | 'signature'>>,
  ): LandedTransaction;
  /** Advances the slot clock by one and tells the pubsub service. */
  tick(): CommitmentSlots;
  /** What was asked of the reader, to check the commitment level it was asked at. */
  readonly reads: { address: string; commitment: Commitment }[];
}

export const CONFIRM_DEPTH = 1n;
export const FINALIZE_DEPTH = 32n;

export function randomSignature(): string {
  const bytes = new Uint8Array(64);
  crypto.getRandomValues(bytes);
  return encodeBase58(bytes);
}

export function randomAddress(): string {
  return Keypair.generate().publicKey.toBase58();
}

export function createFakeChain(events: () => PubSubEvents, startSlot = 100n): FakeChain {
  const accounts = new Map<string, AccountState>();
  const reads: { address: string; commitment: Commitment }[] = [];
  let slot = startSlot;
  const levels = (): CommitmentSlots => {
    const processed = slot - 1n;
    return {
      processed,
      confirmed: processed - CONFIRM_DEPTH,
      finalized: processed - FINALIZE_DEPTH,
    };
  };
  return {
    accounts,
    reads,
    get slot() {
      return slot;
    },
    getAccount(address, commitment) {
      reads.push({ address, commitment });
      return accounts.get(address);
    },
    land(writes, extra = {}) {
      for (const [address, state] of writes) {
        if (state) accounts.set(address, state);
        else accounts.delete(address);
      }
      const transaction: LandedTransaction = {
        signature: extra.signature ?? randomSignature(),
        slot,
        err: extra.err ?? null,
        logs: extra.logs ?? [
          'Program 11111111111111111111111111111111 invoke [1]',
          'Program 11111111111111111111111111111111 success',
        ],
        accountKeys: extra.accountKeys ?? [...writes.keys()],
        writableAccounts: [...writes.keys()],
      };
      events().onTransaction(transaction);
      return transaction;
    },
    tick() {
      slot += 1n;
      const reached = levels();
      events().onSlot(slot, reached);
      return reached;
    },
  };
}
