import type { PublicKey } from '../../domain/public-key.js';
import { splitWireTransaction } from '../../domain/signed-transaction.js';
import { assembleTransaction, toBase64 } from '../../domain/wire.js';
import type { TestSwapDeps } from '../../testing/index.js';
import { sweepUnsettled } from '../payments/tracking.js';
import { executeSwap } from './execute.js';
import { type BuiltSwap, projectSwap } from './firm-quote.js';
import { settleSwaps } from './settle.js';

// Fixtures shared by the swaps use-cases' tests.

/** The OAuth caller: the wallet a token speaks for, and its client. */
export const caller = (subject: PublicKey) => ({ subject, clientId: 'client-1' });

/** A wallet the keystore holds, funded with SOL and USDC (base units). */
export async function withUser(t: TestSwapDeps, sol = 100_000_000_000n, usdc = 10_000_000_000n) {
  const user = (await t.keystore.create())._unsafeUnwrap();
  t.chain.credit(user, t.chain.currencies.native, sol);
  t.chain.credit(user, t.chain.currencies.stable, usdc);
  return user;
}

/** What a wallet does: sign the message of the returned transaction into its own slot. */
export async function walletSigns(
  t: TestSwapDeps,
  user: PublicKey,
  wire: Uint8Array,
  signers: readonly PublicKey[],
) {
  const parts = splitWireTransaction(wire)!;
  const sigs = [...parts.signatures];
  const mine = (await t.keystore.sign(user, parts.message))._unsafeUnwrap();
  sigs[signers.indexOf(user)] = mine;
  return toBase64(assembleTransaction(parts.message, sigs));
}

/** What a wallet does with a firm quote: signs its transaction and hands it to execute. */
export async function signAndExecute(t: TestSwapDeps, user: PublicKey, built: BuiltSwap) {
  const signed = await walletSigns(t, user, built.wire, built.transaction.signers);
  (
    await executeSwap(
      t.swapDeps,
      { requestId: built.request.requestId, signedTransaction: signed },
      caller(user),
    )
  )._unsafeUnwrap();
}

/** A firm quote for `amount` SOL of USDC, signed by the wallet and executed. */
export async function swapAndExecute(t: TestSwapDeps, user: PublicKey, amount: string) {
  const built = (
    await projectSwap(t.swapDeps, { tokenPair: 'SOL-USDC', amount }, caller(user))
  )._unsafeUnwrap();
  await signAndExecute(t, user, built);
  return built;
}

/** What `who` holds of the currency `code`, in base units. */
export const balance = async (t: TestSwapDeps, who: PublicKey, code: string) =>
  (await t.chain.getBalance(who, t.chain.currencies.byCode(code)!))._unsafeUnwrap();

/** Lets every sent transaction finalize, then runs the settlement pass. */
export async function settleAll(t: TestSwapDeps) {
  t.chain.advance(40);
  (await sweepUnsettled(t.deps))._unsafeUnwrap();
  return (await settleSwaps(t.swapDeps))._unsafeUnwrap();
}
