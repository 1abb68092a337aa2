import { Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { createLocalnet, type Localnet } from '../src/index.js';
import { signedTransfer } from './support/transfer.js';

const transfer = async (chain: Localnet, from: Keypair, to: Keypair, lamports: number) =>
  (await signedTransfer(chain, from, to.publicKey, lamports)).wire;

/**
 * LiteSVM keeps no transaction history of its own (it only held memory): a signed transaction is
 * executed at most once because the ledger remembers it while its blockhash is valid, and the slot
 * clock refuses it once that blockhash has passed.
 */
describe('a transaction is executed at most once, without LiteSVM history', () => {
  it('acknowledges a re-send while remembered, and refuses it once forgotten past its blockhash', async () => {
    const chain = await createLocalnet({ slotIntervalMs: 0, historySize: 2, blockhashValiditySlots: 5 });
    const payer = Keypair.generate();
    const to = Keypair.generate();
    chain.fund(payer.publicKey.toBase58(), 20n * BigInt(LAMPORTS_PER_SOL));
    const balance = () => chain.lamports(to.publicKey.toBase58());

    const first = await transfer(chain, payer, to, LAMPORTS_PER_SOL);
    const id = (await chain.sendWire(first))._unsafeUnwrap();
    for (const lamports of [2, 3]) {
      (await chain.sendWire(await transfer(chain, payer, to, lamports * LAMPORTS_PER_SOL)))._unsafeUnwrap();
    }
    expect(balance()).toBe(6n * BigInt(LAMPORTS_PER_SOL));

    // Remembered: the same bytes again answer the same id and move nothing.
    expect((await chain.sendWire(first))._unsafeUnwrap()).toBe(id);
    expect(balance()).toBe(6n * BigInt(LAMPORTS_PER_SOL));

    // Past its blockhash, and with more landed than the ledger keeps, it is forgotten...
    chain.tick(6);
    (await chain.sendWire(await transfer(chain, payer, to, 4 * LAMPORTS_PER_SOL)))._unsafeUnwrap();
    expect(chain.landed(id)).toBeNull();
    // ...and sending it again is refused before it reaches the runtime: nothing moves twice.
    const again = await chain.sendWire(first);
    expect(again.isErr() && again.error.reason).toBe('blockhash');
    expect(balance()).toBe(10n * BigInt(LAMPORTS_PER_SOL));
    chain.close();
  });
});
