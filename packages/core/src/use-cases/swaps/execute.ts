import { err, ok, okAsync, type ResultAsync, safeTry } from 'neverthrow';
import { z } from 'zod';
import { encodeBase58 } from '../../domain/base58.js';
import type { Signature } from '../../domain/public-key.js';
import { splitWireTransaction, verifyEd25519 } from '../../domain/signed-transaction.js';
import { DEFAULT_TENANT } from '../../domain/tenant.js';
import type { TransactionRecord, TxStatus } from '../../domain/transaction.js';
import { assembleTransaction, bytesEqual, fromBase64 } from '../../domain/wire.js';
import { type DomainError, domainError } from '../../errors.js';
import type { SwapRequestRecord } from '../../ports/swap-store.js';
import { trackAsService } from '../payments/track.js';
import type { SwapCaller, SwapDeps } from './deps.js';

export const SwapExecuteRequest = z
  .strictObject({
    requestId: z.string().meta({ description: 'From POST /project/swap or /aggregator/swap' }),
    signedTransaction: z
      .string()
      .meta({ description: 'The returned transaction, base64, signed by the wallet' }),
  })
  .meta({ id: 'SwapExecuteRequest' });
export type SwapExecuteRequest = z.infer<typeof SwapExecuteRequest>;

export interface ExecuteSwapOutcome {
  readonly requestId: string;
  readonly transactionId: Signature;
  /** The transaction's tracking status (pending, processed, ..., finalized, failed, expired). */
  readonly status: TxStatus;
  readonly swapStatus: SwapRequestRecord['status'];
}

type ExecDeps = Pick<SwapDeps, 'swaps' | 'chain' | 'store' | 'clock' | 'swapPolicies'>;

const notFound = () => domainError('SWAP_NOT_FOUND', 'no swap request with this requestId for this client');
const expired = () =>
  domainError('QUOTE_EXPIRED', 'quote expired: its blockhash is no longer valid; request a new quote');

/** The outbox row of a swap: recorded before the first send, so a restart resumes tracking it. */
function outboxRecord(
  deps: ExecDeps,
  request: SwapRequestRecord,
  id: Signature,
  wire: Uint8Array,
): TransactionRecord {
  const tx = request.transaction!;
  const now = deps.clock.now();
  return {
    id,
    // Interface B is project-level (OAuth clients are not tenants): swaps are the default tenant's.
    tenant: DEFAULT_TENANT,
    kind: 'swap',
    status: 'pending',
    currency: request.inputToken,
    amount: request.inAmount,
    from: request.user,
    priority: deps.swapPolicies.priority,
    requestKey: `swap:${request.requestId}`,
    computeUnitPrice: tx.computeUnitPrice,
    computeUnitLimit: tx.computeUnitLimit,
    feeLamports: tx.feeLamports,
    wire,
    blockhash: tx.blockhash,
    lastValidBlockHeight: tx.lastValidBlockHeight,
    createdAt: now,
    updatedAt: now,
  };
}

/** Makes sure a submitted request is in the outbox and (while pending) on its way to the chain. */
function recordAndSend(deps: ExecDeps, request: SwapRequestRecord, id: Signature, wire: Uint8Array) {
  return deps.store.transactions.insert(outboxRecord(deps, request, id, wire)).andThen(({ record }) =>
    record.status === 'pending'
      ? deps.chain
          .send(record.wire)
          .orElse(() => okAsync(record.id))
          .map(() => record)
      : okAsync(record),
  );
}

/** What a repeated execute answers: the transaction first executed, never another. */
function existingOutcome(
  deps: ExecDeps,
  request: SwapRequestRecord,
): ResultAsync<ExecuteSwapOutcome, DomainError> {
  return safeTry(async function* () {
    const id = request.transactionId ?? request.transaction?.transactionId;
    if (!id) return err(request.status === 'expired' ? expired() : notFound());
    if (request.status === 'submitted' && request.signedWire) {
      yield* recordAndSend(deps, request, id, request.signedWire);
    }
    const tracked = await trackAsService(deps, { transactionId: id });
    if (tracked.isOk()) {
      return ok({
        requestId: request.requestId,
        transactionId: id,
        status: tracked.value.status,
        swapStatus: request.status,
      });
    }
    if (request.status === 'expired') return err(expired());
    if (tracked.error.code !== 'TRANSACTION_NOT_FOUND') return err(tracked.error);
    return ok({
      requestId: request.requestId,
      transactionId: id,
      status: 'pending' as const,
      swapStatus: request.status,
    });
  });
}

/**
 * POST /swap/execute: lands the prepared transaction of a swap request once the wallet signed it.
 * The message must be byte for byte the prepared one and every signature the service did not make
 * must verify; a request is executed once (a repeat answers with the same transaction) and never
 * after its blockhash expired. The transaction is recorded in the outbox before it is sent.
 */
export function executeSwap(
  deps: ExecDeps,
  input: SwapExecuteRequest,
  caller: Pick<SwapCaller, 'clientId'>,
): ResultAsync<ExecuteSwapOutcome, DomainError> {
  return safeTry(async function* () {
    // Request ids are `swp_` + URL-safe characters; anything else (a NUL byte, which PostgreSQL
    // text refuses, included) is bad input, not a lookup.
    if (typeof input.requestId !== 'string' || !/^swp_[A-Za-z0-9_-]{1,124}$/.test(input.requestId)) {
      return err(
        domainError('INVALID_INPUT', 'requestId must be the requestId of a prepared swap (swp_...)'),
      );
    }
    if (typeof input.signedTransaction !== 'string' || input.signedTransaction.length > 8_192) {
      return err(domainError('INVALID_INPUT', 'signedTransaction must be a base64 transaction'));
    }
    const request = yield* deps.swaps.get(input.requestId);
    if (!request || request.clientId !== caller.clientId) return err(notFound());
    const wire = fromBase64(input.signedTransaction);
    const parts = wire ? splitWireTransaction(wire) : undefined;
    if (!parts)
      return err(domainError('INVALID_INPUT', 'signedTransaction is not a base64-encoded transaction'));
    const tx = request.transaction;
    if (!tx) return err(expired());
    if (!bytesEqual(parts.message, tx.message) || parts.signatures.length !== tx.signers.length) {
      return err(domainError('TRANSACTION_MISMATCH', 'transaction differs from the prepared one'));
    }
    if (request.status !== 'prepared') return ok(yield* existingOutcome(deps, request));

    const signatures: Uint8Array[] = [];
    for (const [i, signer] of tx.signers.entries()) {
      const ours = tx.presigned[signer];
      if (ours) {
        signatures.push(ours);
        continue;
      }
      const theirs = parts.signatures[i]!;
      if (!(await verifyEd25519(signer, tx.message, theirs))) {
        return err(
          domainError(
            'INVALID_SIGNATURE',
            `the signature of ${signer} does not verify against the prepared transaction`,
          ),
        );
      }
      signatures.push(theirs);
    }
    const height = yield* deps.chain.getBlockHeight();
    if (height > tx.lastValidBlockHeight) {
      // Nothing can land with this blockhash any more: release the reservation now.
      yield* deps.swaps.settle(request.requestId, 'expired', { error: 'quote expired before execution' });
      return err(expired());
    }
    const signed = assembleTransaction(tx.message, signatures);
    const id = encodeBase58(signatures[0]!) as Signature;
    const won = yield* deps.swaps.markSubmitted(request.requestId, id, signed);
    if (!won) {
      const current = yield* deps.swaps.get(request.requestId);
      return ok(yield* existingOutcome(deps, current ?? request));
    }
    const record = yield* recordAndSend(deps, { ...request, signedWire: signed }, id, signed);
    return ok({
      requestId: request.requestId,
      transactionId: id,
      status: record.status,
      swapStatus: 'submitted' as const,
    });
  });
}
