import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import {
  computeUnitPriceOf,
  describeTransactionError,
  encodeBase58,
  feeOf,
  type ParsedMessage,
  type ParsedTransaction,
  toBase64,
} from '@token-actions/core';
import { FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';
import { storedAccount } from '../genesis/genesis.js';
import type { UiTransactionTokenBalance } from '../parsed/token-balances.js';
import type { StoredAccountJson, TxRecordJson } from '../persistence/records.js';
import type { Detail, LocalnetState } from '../state.js';
import { logsOf, transactionErrorJson } from '../svm/failure.js';
import { announceLanded } from './announce.js';
import {
  innerInstructionsOf,
  innerInstructionsToJson,
  tokenBalancesNow,
  tokenBalancesToJson,
} from './extras.js';
import type { Landed } from './ledger.js';

const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const TOKEN_2022 = TOKEN_2022_PROGRAM_ID.toBase58();

/** A transaction about to execute: what recording it afterwards needs from before. */
export interface Landing {
  readonly id: string;
  readonly parsed: ParsedTransaction;
  readonly wire: Uint8Array;
  /** Block height its blockhash was issued at. */
  readonly issuedAt: bigint;
  /** Every account of the message: static keys, then loaded writable, then loaded readonly. */
  readonly keys: readonly Uint8Array[];
  readonly writable: readonly boolean[];
  readonly preBalances: readonly bigint[];
  /** Token balances of its token accounts before it ran (empty when it names no token program). */
  readonly preTokenBalances: readonly UiTransactionTokenBalance[];
}

/** NFTs a message mints: an associated-token-account creation for a Token-2022 mint whose key signed. */
function mintedNfts(message: ParsedMessage): [string, string][] {
  const signers = message.accountKeys.slice(0, message.numRequiredSignatures).map(encodeBase58);
  const found: [string, string][] = [];
  for (const ix of message.instructions) {
    const program = message.accountKeys[ix.programIndex];
    if (!program || encodeBase58(program) !== ATA_PROGRAM || ix.accountIndexes.length < 6) continue;
    const key = (position: number) => {
      const bytes = message.accountKeys[ix.accountIndexes[position]!];
      return bytes ? encodeBase58(bytes) : undefined;
    };
    const owner = key(2);
    const mint = key(3);
    if (owner && mint && key(5) === TOKEN_2022 && signers.includes(mint)) found.push([mint, owner]);
  }
  return found;
}

/**
 * The writable accounts as the transaction left them: every balance after it, and (with a journal)
 * the accounts to store and the ones it closed.
 */
function readWritten(state: LocalnetState, landing: Landing) {
  const { svm, disk, history } = state;
  const { keys, writable, preBalances } = landing;
  const written: StoredAccountJson[] = [];
  const closedAccounts: string[] = [];
  const postBalances = preBalances.slice();
  for (let i = 0; i < keys.length; i++) {
    if (!writable[i]) continue;
    const address = encodeBase58(keys[i]!);
    const after = svm.account(address, keys[i]);
    postBalances[i] = after?.lamports ?? 0n;
    if (!disk.journal) continue;
    history.knownAccounts.add(address);
    if (after) written.push(storedAccount(after));
    else closedAccounts.push(address);
  }
  return { written, closedAccounts, postBalances };
}

/** After execution: reads what the transaction wrote, remembers it, and writes it to the journal;
 * the caller waits for `disk.durable()` (or syncs) before acknowledging the send. */
export function recordLanded(
  state: LocalnetState,
  landing: Landing,
  outcome: TransactionMetadata | FailedTransactionMetadata,
): void {
  const { clock, ledger, disk, history } = state;
  const { id, parsed, wire, keys, writable, preBalances } = landing;
  const failed = outcome instanceof FailedTransactionMetadata;
  const errJson = failed ? transactionErrorJson(outcome) : undefined;
  const logs = failed ? logsOf(outcome) : outcome.logs();
  const unitsConsumed = (failed ? outcome.meta() : outcome).computeUnitsConsumed();
  const message = parsed.message;
  const error = errJson === undefined ? undefined : describeTransactionError(errJson, logs, message).message;

  const { written, closedAccounts, postBalances } = readWritten(state, landing);
  const innerInstructions = innerInstructionsOf(outcome);
  const postTokenBalances = tokenBalancesNow(state, keys, message);
  const { preTokenBalances } = landing;
  const minted = failed ? [] : mintedNfts(message);
  for (const [mint, owner] of minted) history.nftOwners.set(mint, owner);

  const slot = clock.slot;
  const fee = feeOf(message);
  const blockTime = Math.floor(Date.now() / 1000);
  const entry: Landed = {
    slot,
    lastValidBlockHeight: clock.lastValidBlockHeight(landing.issuedAt),
    ...(error === undefined ? {} : { error, err: errJson }),
  };
  const writableKeys = failed ? [] : keys.filter((_, i) => writable[i]).map(encodeBase58);
  ledger.record(
    id,
    entry,
    slot,
    failed ? undefined : { price: computeUnitPriceOf(message), writable: writableKeys },
  );
  history.transactionCount++;
  const detail: Detail = {
    wire: wire.slice(),
    blockTime,
    fee,
    unitsConsumed,
    logs,
    preBalances,
    postBalances,
    innerInstructions,
    preTokenBalances,
    postTokenBalances,
  };
  history.details.remember(id, detail);

  if (disk.journal) {
    const record: TxRecordJson = {
      t: 'tx',
      w: toBase64(wire),
      s: slot.toString(),
      v: entry.lastValidBlockHeight.toString(),
      bt: blockTime,
      f: fee.toString(),
      cu: unitsConsumed.toString(),
      ...(errJson === undefined ? {} : { e: errJson, m: error }),
      l: logs,
      pre: preBalances.map(String),
      post: postBalances.map(String),
      a: written,
      ...(closedAccounts.length > 0 ? { x: closedAccounts } : {}),
      ...(minted.length > 0 ? { o: minted } : {}),
      ...(preTokenBalances.length + postTokenBalances.length > 0
        ? { tb: [tokenBalancesToJson(preTokenBalances), tokenBalancesToJson(postTokenBalances)] as const }
        : {}),
      ...(innerInstructions.length > 0 ? { ii: innerInstructionsToJson(innerInstructions) } : {}),
    };
    const [location] = disk.append([record], false)!;
    entry.location = location;
    entry.durableAt = disk.mark();
  }
  const event = { id, slot, message, keys, writable, err: errJson, logs, blockTime };
  // The address index and the subscriptions hear of it once it is on disk, as the statuses do. A
  // failed write announces nothing: the localnet refuses everything after it.
  if (disk.isDurable(entry.durableAt)) announceLanded(state, event);
  else disk.durable(entry.durableAt).then(() => announceLanded(state, event), noop);
}

const noop = () => {};
