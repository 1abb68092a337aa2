import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram, type PublicKey as Web3PublicKey } from '@solana/web3.js';
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
  type BuiltIntent,
  buildIntent,
  checkPrice,
  compileTrial,
  computeUnitLimitFor,
  finalizePrepared,
  insufficientTokens,
  type Outcome,
  priorityFeeLamports,
  type SolMove,
  toKey,
  tokenAccountAmount,
} from './intents.js';
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
  account(address: Web3PublicKey): Promise<{
    readonly lamports: bigint;
    readonly owner: string;
    readonly data: Uint8Array;
  } | null>;
  /** Simulates an unsigned message without checking signatures; with `feePayer`, reports its
   * lamports afterwards. */
  simulate(message: Uint8Array, signatures: number, feePayer?: Web3PublicKey): Promise<TrialSimulation>;
  rentExemption(space: number): bigint;
  /** Compute units of the fixed-cost shapes simulated so far (see `fixedShape`); kept by the
   * adapter for its lifetime. Without it every transaction is simulated. */
  readonly knownUnits?: Map<string, bigint>;
}

const SYSTEM_PROGRAM = SystemProgram.programId.toBase58();

/**
 * The shape of a transaction whose compute units do not depend on the chain's state, or undefined:
 * SOL transfers cost the same whoever sends them and whatever they move, so one simulation of a
 * shape sizes every later transaction of it.
 */
function fixedShape(built: BuiltIntent): string | undefined {
  return built.solMoves ? `system-transfer x${built.solMoves.length}` : undefined;
}

/**
 * Whether a transaction of SOL transfers certainly executes, from its accounts as they are: every
 * account it touches is a plain system account (or does not exist yet), the fee payer pays the fee,
 * every sender holds what it sends when it sends it, and every account ends empty or rent-exempt.
 * Conservative: what fails a check is simulated as before, so its error is the chain's own.
 */
async function certainlyLands(
  reads: PrepareReads,
  moves: readonly SolMove[],
  feePayer: Web3PublicKey,
  feeLamports: bigint,
): Promise<boolean> {
  // Each account once, by position (a sender is often the fee payer).
  const addresses: string[] = [];
  const keys: Web3PublicKey[] = [];
  const positionOf = (key: Web3PublicKey) => {
    const address = key.toBase58();
    const known = addresses.indexOf(address);
    if (known >= 0) return known;
    keys.push(key);
    return addresses.push(address) - 1;
  };
  const payer = positionOf(feePayer);
  const steps = moves.map((move) => ({
    from: positionOf(move.from),
    to: positionOf(move.to),
    lamports: move.lamports,
  }));
  const held: bigint[] = [];
  for (const account of await Promise.all(keys.map((key) => reads.account(key)))) {
    if (account && (account.owner !== SYSTEM_PROGRAM || account.data.length > 0)) return false;
    held.push(account?.lamports ?? 0n);
  }
  const take = (position: number, lamports: bigint) => {
    if (held[position]! < lamports) return false;
    held[position]! -= lamports;
    return true;
  };
  if (!take(payer, feeLamports)) return false;
  for (const step of steps) {
    if (!take(step.from, step.lamports)) return false;
    held[step.to]! += step.lamports;
  }
  const floor = reads.rentExemption(0);
  return held.every((lamports) => lamports === 0n || lamports >= floor);
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
  const shape = reads.knownUnits && fixedShape(built);
  const units = shape === undefined ? undefined : reads.knownUnits!.get(shape);
  if (units !== undefined) {
    const prepared = await finalizePrepared({
      feePayer,
      built,
      blockhash: latest.blockhash,
      lastValidBlockHeight: latest.lastValidBlockHeight,
      computeUnitLimit: computeUnitLimitFor(units, nudge()),
      computeUnitPrice: price.value,
    });
    if (await certainlyLands(reads, built.solMoves!, feePayer, prepared.feeLamports)) return ok(prepared);
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
  if (shape !== undefined) {
    const seen = reads.knownUnits!.get(shape) ?? 0n;
    if (simulated.unitsConsumed > seen) reads.knownUnits!.set(shape, simulated.unitsConsumed);
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
