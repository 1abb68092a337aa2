import {
  decodeBase58,
  encodeBase58,
  isPublicKey,
  type ParsedMessage,
  type ParsedTransaction,
} from '@token-actions/core';
import { Account, LiteSVM } from 'litesvm';
import type { LocalAccount } from '../types.js';
import { type NativeSvm, nativeOf } from './native.js';

/** Bytes of an address lookup table before its addresses. */
const ALT_HEADER_BYTES = 56;

/** The 32 bytes of a base58 address; undefined for anything else. */
export function keyBytes(address: string): Uint8Array | undefined {
  const bytes = isPublicKey(address) ? decodeBase58(address) : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

/**
 * The runtime: LiteSVM with real programs (System, SPL Token, Token-2022, ATA), reached through its
 * native object with raw bytes. Holds no localnet state of its own beyond the accounts.
 */
export class Svm {
  readonly native: NativeSvm;
  private readonly svm: LiteSVM;

  constructor() {
    this.svm = new LiteSVM()
      .withLamports(1n << 62n)
      // No history of LiteSVM's own: the ledger remembers a landed transaction while its blockhash
      // is valid and the slot clock refuses it after, so none executes twice. LiteSVM's copy of
      // every result only held memory: 46 MiB after 100,000 transactions.
      .withTransactionHistory(0n)
      // Expiry is enforced by the slot clock against a real validity window; LiteSVM alone
      // accepts only the latest blockhash.
      .withBlockhashCheck(false);
    this.native = nativeOf(this.svm);
  }

  /** The slot LiteSVM starts at. */
  initialSlot(): bigint {
    return this.svm.getClock().slot;
  }

  /** Moves LiteSVM's clock to `slot`, with the wall clock's unix time. */
  warpTo(slot: bigint): void {
    this.svm.warpToSlot(slot);
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
    this.svm.setClock(clock);
  }

  epochSchedule() {
    return this.svm.getEpochSchedule();
  }

  account(address: string, bytes = keyBytes(address)): LocalAccount | null {
    if (!bytes) return null;
    const account = this.native.getAccount(bytes);
    if (!account) return null;
    const lamports = account.lamports();
    if (lamports === 0n) return null;
    return {
      address,
      lamports,
      owner: encodeBase58(account.owner()),
      executable: account.executable(),
      data: account.data(),
    };
  }

  lamports(bytes: Uint8Array): bigint {
    return this.native.getBalance(bytes) ?? 0n;
  }

  /** Puts an account back as it was stored (a restart). */
  write(address: string, lamports: bigint, owner: string, executable: boolean, data: Uint8Array): void {
    const bytes = keyBytes(address);
    const ownerBytes = keyBytes(owner);
    if (!bytes || !ownerBytes) throw new Error(`stored account ${address} is malformed`);
    this.native.setAccount(bytes, new Account(lamports, data, ownerBytes, executable, 0n));
  }

  rentExempt(space: number): bigint {
    return this.native.minimumBalanceForRentExemption(BigInt(space));
  }

  send(parsed: ParsedTransaction, wire: Uint8Array) {
    return parsed.message.version === 'legacy'
      ? this.native.sendLegacyTransaction(wire)
      : this.native.sendVersionedTransaction(wire);
  }

  simulate(parsed: ParsedTransaction, wire: Uint8Array, sigVerify: boolean) {
    this.native.setSigverify(sigVerify);
    try {
      return parsed.message.version === 'legacy'
        ? this.native.simulateLegacyTransaction(wire)
        : this.native.simulateVersionedTransaction(wire);
    } finally {
      this.native.setSigverify(true);
    }
  }

  /** Accounts a v0 message loads from lookup tables; empty for legacy messages. */
  loadedAddresses(message: ParsedMessage): { writable: Uint8Array[]; readonly: Uint8Array[] } {
    const writable: Uint8Array[] = [];
    const readonly: Uint8Array[] = [];
    for (const lookup of message.lookups) {
      const data = this.native.getAccount(lookup.accountKey)?.data();
      const addressAt = (index: number) => {
        const start = ALT_HEADER_BYTES + index * 32;
        return data && start + 32 <= data.length ? data.slice(start, start + 32) : undefined;
      };
      for (const index of lookup.writableIndexes) {
        const address = addressAt(index);
        if (address) writable.push(address);
      }
      for (const index of lookup.readonlyIndexes) {
        const address = addressAt(index);
        if (address) readonly.push(address);
      }
    }
    return { writable, readonly };
  }
}
