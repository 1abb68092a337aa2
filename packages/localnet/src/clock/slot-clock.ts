import { createHash, randomBytes } from 'node:crypto';
import { encodeBase58 } from '@token-actions/core';

/**
 * Slots and blockhashes: the current slot (also the block height, since the localnet skips no
 * slot), the current blockhash, and every blockhash handed out with the height it was issued at.
 */
export class SlotClock {
  slot: bigint;
  /** The localnet's first slot (kept across restarts). */
  firstSlot: bigint;
  /** Blockhashes handed out, by the block height they were issued at (oldest first). A blockhash
   * reaches a client only through this map, and each entry is on disk before it is handed out. */
  readonly issued = new Map<string, bigint>();
  private current = '';
  // A fresh LiteSVM derives the same blockhash sequence every time; a random nonce per process
  // keeps blockhashes issued after a restart distinct from every earlier one, so a message compiled
  // now can never repeat (and be mistaken for) one signed before the restart.
  private readonly bootNonce = randomBytes(32);

  constructor(
    /** Block heights a blockhash stays valid after it is issued. */
    readonly validity: bigint,
    start: bigint,
  ) {
    this.slot = start;
    this.firstSlot = start;
  }

  get currentBlockhash(): string {
    return this.current;
  }

  /** Moves to `height` with its own blockhash; issued blockhashes past their window are forgotten. */
  moveTo(height: bigint): void {
    this.slot = height;
    this.current = this.blockhashAt(height);
    for (const [hash, issuedAt] of this.issued) {
      if (issuedAt + this.validity >= height) break;
      this.issued.delete(hash);
    }
  }

  lastValidBlockHeight(issuedAt: bigint): bigint {
    return issuedAt + this.validity;
  }

  /** The height a still-valid blockhash was issued at; undefined for unknown or expired ones. */
  validIssue(blockhash: string): bigint | undefined {
    const issuedAt = this.issued.get(blockhash);
    return issuedAt !== undefined && this.slot <= issuedAt + this.validity ? issuedAt : undefined;
  }

  /** The blockhash of the block at `height` as this process derives it (see `bootNonce`). */
  blockhashAt(height: bigint): string {
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(height);
    return encodeBase58(new Uint8Array(createHash('sha256').update(this.bootNonce).update(buffer).digest()));
  }
}
