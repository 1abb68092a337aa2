import type { PublicKey } from '../../domain/public-key.js';
import type { NftMetadata } from '../../ports/chain.js';
import type { FakeMessage } from './message.js';

/** The fake chain's state that transactions change: balances by (owner, currency key) and NFTs. */
export class FakeLedger {
  private readonly balances = new Map<string, bigint>();
  readonly nfts = new Map<string, NftMetadata>();

  static key(owner: string, currencyKey: string): string {
    return `${owner}|${currencyKey}`;
  }

  balanceOf(owner: string, currencyKey: string): bigint {
    return this.balances.get(FakeLedger.key(owner, currencyKey)) ?? 0n;
  }

  add(owner: string, currencyKey: string, delta: bigint): void {
    this.balances.set(FakeLedger.key(owner, currencyKey), this.balanceOf(owner, currencyKey) + delta);
  }

  /** Runs a message's instructions; returns the program error of a failed one. */
  execute(message: FakeMessage): string | undefined {
    const intent = message.intent;
    if (intent.kind === 'transfers') {
      // All or nothing: check every leg against the balances as the earlier legs leave them.
      const after = new Map<string, bigint>();
      const held = (owner: string, key: string) =>
        after.get(FakeLedger.key(owner, key)) ?? this.balanceOf(owner, key);
      for (const leg of intent.legs ?? []) {
        const amount = BigInt(leg.amount);
        if (held(leg.from, leg.currencyKey) < amount) return 'insufficient funds';
        after.set(FakeLedger.key(leg.from, leg.currencyKey), held(leg.from, leg.currencyKey) - amount);
        after.set(FakeLedger.key(leg.to, leg.currencyKey), held(leg.to, leg.currencyKey) + amount);
      }
      for (const [k, v] of after) this.balances.set(k, v);
      return undefined;
    }
    if (intent.kind === 'transfer') {
      const amount = BigInt(intent.amount!);
      if (this.balanceOf(intent.from!, intent.currencyKey!) < amount) return 'insufficient funds';
      this.add(intent.from!, intent.currencyKey!, -amount);
      this.add(intent.to!, intent.currencyKey!, amount);
      return undefined;
    }
    const mint = message.mint as PublicKey;
    if (this.nfts.has(mint)) return 'mint account already in use';
    this.nfts.set(mint, {
      mint,
      name: intent.name!,
      symbol: intent.symbol!,
      uri: intent.uri!,
      updateAuthority: intent.authority as PublicKey,
      supply: 1n,
      decimals: 0,
      owner: intent.owner as PublicKey,
    });
    return undefined;
  }
}
