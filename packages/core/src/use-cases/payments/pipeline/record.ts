import { err, errAsync, ok, okAsync, type Result, ResultAsync } from 'neverthrow';
import type { PriorityLevel } from '../../../domain/priority.js';
import type { PublicKey } from '../../../domain/public-key.js';
import type { TenantId } from '../../../domain/tenant.js';
import type { TransactionKind, TransactionRecord } from '../../../domain/transaction.js';
import { type DomainError, domainError } from '../../../errors.js';
import type { PreparedTransaction } from '../../../ports/chain.js';
import type { EscrowRecord } from '../../../ports/store.js';
import type { ActionDeps } from '../deps.js';
import type { ActionOptions } from './payment.js';
import type { Plan } from './plan.js';
import type { SignedTransaction } from './sign.js';

/** What the outbox row says about a transaction besides its bytes. */
export interface RecordMeta {
  readonly tenant: TenantId;
  readonly kind: TransactionKind;
  readonly currency?: string;
  readonly amount?: bigint;
  readonly from?: PublicKey;
  readonly to?: PublicKey;
  readonly escrowId?: string;
  readonly priority?: PriorityLevel;
  readonly requestKey?: string;
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
  return recordOnly(deps, prepared, signed, meta, escrow).andThen(({ record: stored, duplicate }) => {
    if (stored.status !== 'pending') return okAsync({ record: stored, duplicate });
    // A send failure is not the caller's failure: the record exists and is rebroadcast until it
    // lands or its blockhash expires, so the answer is still the transaction id. What is sent is
    // the stored transaction: for a re-run request that is the one recorded the first time.
    return deps.chain
      .send(stored.wire)
      .orElse(() => okAsync(stored.id))
      .map(() => ({ record: stored, duplicate }));
  });
}

/**
 * Records a transaction as pending without sending it: for one that still waits for a wallet's
 * signature (a Solana Action), which only the wallet can complete and send. Its id is the fee
 * payer's signature, already made, so tracking finds it once the wallet lands it.
 */
export function recordOnly(
  deps: Pick<ActionDeps, 'store' | 'clock'>,
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
      // Identical bytes built for two tenants (two treasury payments alike in every field within
      // one blockhash) are one transaction: it stays its first tenant's, and the second caller is
      // told to retry, which builds a different one.
      if (stored.tenant !== record.tenant) {
        return errAsync(
          domainError('INTERNAL', 'an identical transaction was recorded for another caller', {
            context: { transactionId: stored.id },
          }),
        );
      }
      return okAsync({ record: stored, duplicate: !inserted });
    });
}

export interface Executed {
  readonly record: TransactionRecord;
  readonly escrow?: EscrowRecord;
}

/**
 * Records a signed plan (with the escrow it funds, in one write), then sends it.
 * With a requestKey, a re-run of the same request returns what the first run recorded.
 */
export function recordPlan(
  deps: Pick<ActionDeps, 'store' | 'chain' | 'clock' | 'ids' | 'policies'>,
  plan: Plan,
  prepared: PreparedTransaction,
  signed: SignedTransaction,
  options: ActionOptions & {
    /** The transaction still needs a wallet's signature: record it, do not send it. */
    readonly awaitingWallet?: boolean;
  },
): ResultAsync<Executed, DomainError> {
  // An async function awaiting Results rather than safeTry, like performAction: every donation runs
  // it, and an async generator per step is garbage that outlives a scavenge while a request waits.
  return new ResultAsync(
    (async (): Promise<Result<Executed, DomainError>> => {
      let escrow: EscrowRecord | undefined;
      if (plan.escrow && plan.action.type !== 'mint') {
        const now = deps.clock.now();
        escrow = {
          id: deps.ids.next('esc'),
          tenant: options.tenant.id,
          purpose: plan.escrow.purpose,
          payer: plan.action.from,
          beneficiary: plan.escrow.beneficiary,
          currency: plan.action.currency.code,
          amount: plan.action.amount,
          status: 'held',
          fundingTransactionId: signed.id,
          expiresAt: new Date(now.getTime() + deps.policies.escrowTtlMs),
          expiryAction: deps.policies.escrowExpiryAction,
          createdAt: now,
          updatedAt: now,
        };
      }
      const meta: RecordMeta = {
        ...plan.meta,
        tenant: options.tenant.id,
        ...(escrow ? { escrowId: escrow.id } : {}),
        ...(options.requestKey ? { requestKey: options.requestKey } : {}),
      };
      const written = await (options.awaitingWallet
        ? recordOnly(deps, prepared, signed, meta, escrow)
        : recordAndSend(deps, prepared, signed, meta, escrow));
      if (written.isErr()) return err(written.error);
      const { record, duplicate } = written.value;
      if (duplicate && record.escrowId) {
        const stored = await deps.store.escrows.get(record.escrowId, record.tenant);
        if (stored.isErr()) return err(stored.error);
        return ok(stored.value ? { record, escrow: stored.value } : { record });
      }
      return ok(escrow ? { record, escrow } : { record });
    })(),
  );
}
