import {
  describeTransactionError,
  encodeBase58,
  isWritable,
  isZero,
  type ParsedTransaction,
  type Signature,
} from '@token-actions/core';
import { FailedTransactionMetadata, TransactionMetadata } from 'litesvm';
import { err, ok, type Result } from 'neverthrow';
import type { LocalnetState } from '../state.js';
import { logsOf, transactionErrorJson } from '../svm/failure.js';
import type { WireRejection } from '../types.js';
import { tokenBalancesNow } from './extras.js';
import { parseWire, rejection, signatureFailure } from './parse.js';
import { type Landing, recordLanded } from './record.js';

/** Refuses in preflight what would fail, as a validator's RPC does. (An already processed one never
 * gets here: `submit` answers it from the ledger first.) */
function preflight(
  state: LocalnetState,
  parsed: ParsedTransaction,
  wire: Uint8Array,
): WireRejection | undefined {
  const simulated = state.svm.simulate(parsed, wire, true);
  if (!(simulated instanceof FailedTransactionMetadata)) return undefined;
  const errJson = transactionErrorJson(simulated);
  if (errJson === 'SignatureFailure') return signatureFailure();
  const logs = logsOf(simulated);
  const failure = describeTransactionError(errJson, logs, parsed.message);
  return rejection('preflight', failure.message, {
    err: errJson,
    logs,
    unitsConsumed: simulated.meta().computeUnitsConsumed(),
    code: failure.kind === 'insufficient_funds' ? 'INSUFFICIENT_FUNDS' : 'INVALID_INPUT',
  });
}

function landingOf(
  state: LocalnetState,
  id: string,
  parsed: ParsedTransaction,
  wire: Uint8Array,
  issuedAt: bigint,
): Landing {
  const { message } = parsed;
  const loaded = state.svm.loadedAddresses(message);
  const keys = [...message.accountKeys, ...loaded.writable, ...loaded.readonly];
  const staticCount = message.accountKeys.length;
  return {
    id,
    parsed,
    wire,
    issuedAt,
    keys,
    writable: keys.map((_, i) =>
      i < staticCount ? isWritable(message, i) : i < staticCount + loaded.writable.length,
    ),
    preBalances: keys.map((key) => state.svm.lamports(key)),
    preTokenBalances: tokenBalancesNow(state, keys, message),
  };
}

/**
 * Lands a transaction after the checks a validator's RPC would make; the one path for every send. A
 * signature already landed is acknowledged again without executing: the ledger is the only dedupe,
 * since LiteSVM keeps no history (its copy of every result only held memory). A landed transaction
 * is written to the journal before this returns but not yet durable: `sendDurably` (or a sync)
 * waits for that before the send is acknowledged.
 */
export function submit(
  state: LocalnetState,
  wire: Uint8Array,
  withPreflight = false,
): Result<Signature, WireRejection> {
  const refused = state.disk.refusal();
  if (refused) return err(rejection('unavailable', refused));
  const parsedResult = parseWire(wire);
  if (parsedResult.isErr()) return err(parsedResult.error);
  const parsed = parsedResult.value;
  if (parsed.signatures.some(isZero)) {
    return err(rejection('signature', 'transaction is missing a signature', { err: 'SignatureFailure' }));
  }
  const id = encodeBase58(parsed.signatures[0]!) as Signature;
  if (state.ledger.has(id)) return ok(id);

  const issuedAt = state.clock.validIssue(encodeBase58(parsed.message.recentBlockhash));
  if (issuedAt === undefined) {
    return err(
      rejection('blockhash', 'blockhash not found or expired', { err: 'BlockhashNotFound', logs: [] }),
    );
  }
  if (withPreflight) {
    const refusedInPreflight = preflight(state, parsed, wire);
    if (refusedInPreflight) return err(refusedInPreflight);
  }

  const landing = landingOf(state, id, parsed, wire, issuedAt);
  const result = state.svm.send(parsed, wire);
  if (result instanceof TransactionMetadata) {
    recordLanded(state, landing, result);
    return ok(id);
  }
  if (result instanceof FailedTransactionMetadata) {
    const errJson = transactionErrorJson(result);
    const logs = logsOf(result);
    const failure = describeTransactionError(errJson, logs, parsed.message);
    if (!isZero(result.meta().signature())) {
      recordLanded(state, landing, result);
      return ok(id);
    }
    if (errJson === 'SignatureFailure') return err(signatureFailure());
    return err(
      rejection('rejected', failure.message, {
        err: errJson,
        logs,
        code: failure.kind === 'insufficient_funds' ? 'INSUFFICIENT_FUNDS' : 'INVALID_INPUT',
      }),
    );
  }
  throw new Error('LiteSVM returned neither TransactionMetadata nor FailedTransactionMetadata');
}

/**
 * `submit`, answered only once what it wrote is on disk. Concurrent sends share one fsync, done
 * off the event loop; a send that was refused wrote nothing and is answered at once.
 */
export async function sendDurably(
  state: LocalnetState,
  wire: Uint8Array,
  withPreflight = false,
): Promise<Result<Signature, WireRejection>> {
  const submitted = submit(state, wire, withPreflight);
  if (submitted.isErr()) return submitted;
  try {
    // Also for a signature landed before: its record may still be waiting for the disk.
    await state.disk.durable();
  } catch {
    return err(rejection('unavailable', state.disk.refusal() ?? 'localnet state could not be written'));
  }
  return submitted;
}
