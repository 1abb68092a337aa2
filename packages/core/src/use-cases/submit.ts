import { errAsync, ok, okAsync, ResultAsync, safeTry } from 'neverthrow';
import type { PriorityLevel } from '../domain/priority.js';
import type { PublicKey, Signature } from '../domain/public-key.js';
import type { TransactionKind, TransactionRecord } from '../domain/transaction.js';
import { assembleTransaction, transactionIdOf } from '../domain/wire.js';
import { type DomainError, domainError } from '../errors.js';
import type { ChainIntent, PreparedTransaction } from '../ports/chain.js';
import type { EscrowRecord } from '../ports/store.js';
import type { ActionDeps } from './deps.js';

/** What the outbox row says about a transaction besides its bytes. */
export interface RecordMeta {
  readonly kind: TransactionKind;
  readonly currency?: string;
  readonly amount?: bigint;
  readonly from?: PublicKey;
  readonly to?: PublicKey;
  readonly escrowId?: string;
  readonly priority?: PriorityLevel;
  readonly requestKey?: string;
}

export interface SignedTransaction {
  readonly id: Signature;
  readonly wire: Uint8Array;
}

export function writableOf(intent: ChainIntent): PublicKey[] {
  switch (intent.kind) {
    case 'transfer':
      return [intent.from, intent.to];
    case 'mint_nft':
      return [intent.owner];
    case 'transfers':
      return [...new Set(intent.legs.flatMap((leg) => [leg.from, leg.to]))];
  }
}

/** Prices the priority level on the accounts the transaction writes, then builds and simulates it. */
export function prepareIntent(
  deps: Pick<ActionDeps, 'chain' | 'fees' | 'accounts'>,
  intent: ChainIntent,
  priority: PriorityLevel,
): ResultAsync<PreparedTransaction, DomainError> {
  return deps.fees
    .computeUnitPrice(priority, writableOf(intent))
    .andThen((computeUnitPrice) =>
      deps.chain.prepare(intent, { feePayer: deps.accounts.treasury, computeUnitPrice }),
    );
}

/** Signs with every managed signer the adapter has not signed for already. */
export function signPrepared(
  deps: Pick<ActionDeps, 'keystore'>,
  prepared: Pick<PreparedTransaction, 'message' | 'signers' | 'presigned'>,
): ResultAsync<SignedTransaction, DomainError> {
  const signatures = prepared.signers.map((signer) => {
    const presigned = prepared.presigned[signer];
    return presigned
      ? okAsync<Uint8Array, DomainError>(presigned)
      : deps.keystore.sign(signer, prepared.message);
  });
  return ResultAsync.combine(signatures).map((sigs) => ({
    id: transactionIdOf(sigs),
    wire: assembleTransaction(prepared.message, sigs),
  }));
}

/**
 * Records the transaction (the outbox row) and then sends it. The record comes first so nothing
 * accepted is lost: if the send fails the worker rebroadcasts from the record until the blockhash
 * expires. A transaction already recorded (same signature: the same preview signed twice) is not
 * recorded again and is only re-sent, which the chain dedupes.
 */
export function recordAndSend(
  deps: Pick<ActionDeps, 'store' | 'chain' | 'clock'>,
  prepared: PreparedTransaction,
  signed: SignedTransaction,
  meta: RecordMeta,
  escrow?: EscrowRecord,
): ResultAsync<{ record: TransactionRecord; duplicate: boolean }, DomainError> {
  const now = deps.clock.now();
  const record: TransactionRecord = {
    id: signed.id,
    status: 'pending',
    ...meta,
    ...(prepared.mint ? { mint: prepared.mint } : {}),
    computeUnitPrice: prepared.computeUnitPrice,
    computeUnitLimit: prepared.computeUnitLimit,
    feeLamports: prepared.feeLamports,
    wire: signed.wire,
    blockhash: prepared.blockhash,
    lastValidBlockHeight: prepared.lastValidBlockHeight,
    createdAt: now,
    updatedAt: now,
  };
  return deps.store.transactions
    .insert(record, escrow ? { escrow } : {})
    .andThen(({ inserted, record: stored }) => {
      if (stored.status !== 'pending') return okAsync({ record: stored, duplicate: !inserted });
      // A send failure is not the caller's failure: the record exists and is rebroadcast until it
      // lands or its blockhash expires, so the answer is still the transaction id. What is sent is
      // the stored transaction: for a re-run request that is the one recorded the first time.
      return deps.chain
        .send(stored.wire)
        .orElse(() => okAsync(stored.id))
        .map(() => ({ record: stored, duplicate: !inserted }));
    });
}

/** prepare + sign + record + send: the path of every transaction the service initiates directly. */
export function submitIntent(
  deps: Pick<ActionDeps, 'chain' | 'fees' | 'accounts' | 'keystore' | 'store' | 'clock'>,
  intent: ChainIntent,
  priority: PriorityLevel,
  meta: RecordMeta,
): ResultAsync<{ record: TransactionRecord; prepared: PreparedTransaction }, DomainError> {
  return safeTry(async function* () {
    const prepared = yield* prepareIntent(deps, intent, priority);
    const signed = yield* signPrepared(deps, prepared);
    const { record } = yield* recordAndSend(deps, prepared, signed, { ...meta, priority });
    return ok({ record, prepared });
  });
}

/** The sender must be an account whose key the service holds. */
export function requireManaged(
  deps: Pick<ActionDeps, 'keystore' | 'accounts'>,
  account: PublicKey,
  field = 'account',
): ResultAsync<PublicKey, DomainError> {
  return deps.keystore
    .has(account)
    .andThen((held) =>
      held
        ? okAsync(account)
        : errAsync(
            domainError(
              'UNKNOWN_ACCOUNT',
              `${field} ${account} is not an account managed by this service; create one with POST /v1/api/accounts`,
            ),
          ),
    );
}
