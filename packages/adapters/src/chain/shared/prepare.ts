import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { PublicKey as Web3PublicKey } from '@solana/web3.js';
import {
  type ChainIntent,
  domainError,
  type PreparedTransaction,
  type PrepareOptions,
  parseMessage,
  simulationFailure,
  type TransactionErrorJson,
} from '@token-actions/core';
import { err, ok } from 'neverthrow';
import {
  buildIntent,
  checkPrice,
  compileTrial,
  computeUnitLimitFor,
  finalizePrepared,
  insufficientTokens,
  type Outcome,
  priorityFeeLamports,
  toKey,
  tokenAccountAmount,
} from './intents.js';
import { type AccountView, landingPlan } from './landing.js';
import type { NewSigner } from './signer.js';

export interface IssuedBlockhash {
  readonly blockhash: string;
  readonly lastValidBlockHeight: bigint;
}

export interface TrialSimulation {
  readonly err: TransactionErrorJson | null;
  readonly logs: readonly string[];
  readonly unitsConsumed: bigint;
  /** The fee payer's lamports after the simulation, when they were asked for. */
  readonly feePayerLamports?: bigint;
}

/**
 * What preparing a transaction reads from a chain, whatever carries the reads: JSON-RPC over HTTP
 * or a localnet in the same process. Both adapters prepare through `prepareTransaction`, so a
 * transaction is built, sized and checked the same way on either.
 */
export interface PrepareReads {
  /** The blockhash to compile against; `fresh` skips any cache. */
  blockhash(fresh: boolean): Promise<IssuedBlockhash>;
  /** An account's lamports, owning program (base58) and data, at `processed`; null when absent. */
  account(address: string): Promise<AccountView | null>;
  /** Simulates an unsigned message without checking signatures; with `feePayer`, reports its
   * lamports afterwards. */
  simulate(message: Uint8Array, signatures: number, feePayer?: Web3PublicKey): Promise<TrialSimulation>;
  rentExemption(space: number): bigint;
  /** Compute units of the transaction shapes simulated so far (see `landingPlan`); kept by the
   * adapter for its lifetime. Without it every transaction is simulated. */
  readonly knownUnits?: Map<string, bigint>;
}

/**
 * Builds an intent, checks the sender's tokens first (a clear INSUFFICIENT_FUNDS), simulates it at
 * the maximum compute-unit limit to size the real one, checks the fee payer can also pay the
 * priority fee, and compiles the message every signer signs. A shape of fixed cost simulated
 * before is sized from that simulation instead, when its accounts show it certainly executes.
 * `nudge` is called once per transaction sized (see `computeUnitLimitFor`).
 */
export async function prepareTransaction(
  reads: PrepareReads,
  intent: ChainIntent,
  options: PrepareOptions,
  nudge: () => number,
  newSigner: NewSigner,
): Promise<Outcome<PreparedTransaction>> {
  const price = checkPrice(options?.computeUnitPrice);
  if (price.isErr()) return err(price.error);
  const payerKey = toKey(options.feePayer, 'feePayer');
  if (payerKey.isErr()) return err(payerKey.error);
  const feePayer = payerKey.value;
  const mintSigner = intent?.kind === 'mint_nft' ? await newSigner() : undefined;
  const builtResult = buildIntent(intent, feePayer, (space) => reads.rentExemption(space), mintSigner);
  if (builtResult.isErr()) return err(builtResult.error);
  const built = builtResult.value;
  const source = built.tokenSource;

  const [latest, sourceAccount] = await Promise.all([
    reads.blockhash(false),
    source ? reads.account(source.account) : Promise.resolve(null),
  ]);
  if (source) {
    const tokenProgram = source.currency.tokenProgram ?? TOKEN_PROGRAM_ID.toBase58();
    const held =
      sourceAccount && sourceAccount.owner === tokenProgram ? tokenAccountAmount(sourceAccount.data) : 0n;
    if (held < source.amount) return err(insufficientTokens(source, (intent as { from: string }).from, held));
  }

  // A shape of known cost that certainly executes needs no simulation (one execution fewer): it is
  // sized from the units its shape was simulated at. Adapters without `knownUnits` always simulate.
  const plan = reads.knownUnits && built.moves ? await landingPlan(reads, built.moves, feePayer) : undefined;
  const units = plan && reads.knownUnits!.get(plan.shape);
  if (units !== undefined) {
    const prepared = await finalizePrepared({
      feePayer,
      built,
      blockhash: latest.blockhash,
      lastValidBlockHeight: latest.lastValidBlockHeight,
      computeUnitLimit: computeUnitLimitFor(units, nudge()),
      computeUnitPrice: price.value,
    });
    if (plan!.lands(prepared.feeLamports)) return ok(prepared);
  }

  // The simulation pays no priority fee: with a price, the payer's balance after it is checked.
  const payerAfter = price.value > 0n ? feePayer : undefined;
  let blockhash = latest;
  let trial = compileTrial(feePayer, built, blockhash.blockhash);
  if (trial.isErr()) return err(trial.error);
  let simulated = await reads.simulate(trial.value.bytes, trial.value.numRequiredSignatures, payerAfter);
  if (simulated.err === 'BlockhashNotFound') {
    // A cached blockhash expired (or the node is behind it): one retry with a fresh one.
    blockhash = await reads.blockhash(true);
    trial = compileTrial(feePayer, built, blockhash.blockhash);
    if (trial.isErr()) return err(trial.error);
    simulated = await reads.simulate(trial.value.bytes, trial.value.numRequiredSignatures, payerAfter);
  }
  if (simulated.err) {
    return err(simulationFailure(simulated.err, simulated.logs, parseMessage(trial.value.bytes)));
  }
  if (plan) {
    const seen = reads.knownUnits!.get(plan.shape) ?? 0n;
    if (simulated.unitsConsumed > seen) reads.knownUnits!.set(plan.shape, simulated.unitsConsumed);
  }
  const computeUnitLimit = computeUnitLimitFor(simulated.unitsConsumed, nudge());
  const priorityFee = priorityFeeLamports(price.value, computeUnitLimit);
  if (priorityFee > 0n) {
    // The payer must afford the priority fee on top and stay rent-exempt.
    const remaining = (simulated.feePayerLamports ?? 0n) - priorityFee;
    if (remaining < 0n || (remaining > 0n && remaining < reads.rentExemption(0))) {
      return err(domainError('INSUFFICIENT_FUNDS', 'the fee payer cannot pay the priority fee'));
    }
  }
  return ok(
    await finalizePrepared({
      feePayer,
      built,
      blockhash: blockhash.blockhash,
      lastValidBlockHeight: blockhash.lastValidBlockHeight,
      computeUnitLimit,
      computeUnitPrice: price.value,
    }),
  );
}
