import { err, errAsync, ok, okAsync, type ResultAsync, safeTry } from 'neverthrow';
import { parseSignature, type Signature } from '../../domain/public-key.js';
import type { TenantId } from '../../domain/tenant.js';
import { TERMINAL_STATUSES, type TransactionRecord, type TxStatus } from '../../domain/transaction.js';
import { type DomainError, domainError } from '../../errors.js';
import type { ClusterInfo } from '../../ports/chain.js';
import type { ActionDeps } from './deps.js';
import { refreshStatuses } from './tracking.js';

export interface TrackOutcome {
  readonly transactionId: Signature;
  readonly status: TxStatus;
  readonly explorerUrl: string;
  /** Present when the service recorded the transaction itself. */
  readonly record?: TransactionRecord;
}

/** explorer.solana.com link for the cluster; mainnet needs no cluster parameter. */
function explorerUrl(cluster: ClusterInfo, id: string): string {
  const base = `https://explorer.solana.com/tx/${id}`;
  const custom = () => `${base}?cluster=custom&customUrl=${encodeURIComponent(cluster.rpcUrl)}`;
  const name = cluster.name;
  switch (name) {
    case 'mainnet-beta':
      return base;
    case 'devnet':
    case 'testnet':
      return `${base}?cluster=${name}`;
    case 'localnet':
    case 'custom':
      return custom();
  }
  // A cluster name added to ClusterInfo fails to compile here until it has a case above; a name
  // from outside the union (configuration read loosely) is linked as a custom cluster.
  name satisfies never;
  return custom();
}

/**
 * Current status of a transaction: the caller's outbox record refreshed from the chain, or, for a
 * signature the service never recorded, the chain alone (public data, as any RPC node would answer).
 * A transaction another tenant recorded is not found, with the message of an unknown signature.
 */
export function track(
  deps: Pick<ActionDeps, 'chain' | 'store' | 'clock'>,
  input: { readonly transactionId: string; readonly tenant: TenantId },
): ResultAsync<TrackOutcome, DomainError> {
  return trackScoped(deps, input);
}

/**
 * The service's own view, across tenants: for interface B, whose swaps and completion
 * notifications are project-level. Never answer a tenant's request with it.
 */
export function trackAsService(
  deps: Pick<ActionDeps, 'chain' | 'store' | 'clock'>,
  input: { readonly transactionId: string },
): ResultAsync<TrackOutcome, DomainError> {
  return trackScoped(deps, input);
}

function trackScoped(
  deps: Pick<ActionDeps, 'chain' | 'store' | 'clock'>,
  input: { readonly transactionId: string; readonly tenant?: TenantId },
): ResultAsync<TrackOutcome, DomainError> {
  // Combinators rather than safeTry on the common path (a transaction this service recorded):
  // every tracking read runs it, and each `yield*` of a ResultAsync costs an async generator.
  const parsed = parseSignature(input.transactionId);
  if (parsed.isErr()) return errAsync(parsed.error);
  const id = parsed.value;
  const url = explorerUrl(deps.chain.cluster, id);
  return deps.store.transactions.get(id, input.tenant).andThen((stored) => {
    if (!stored) return trackUnrecorded(deps, id, url, input.tenant);
    const outcome = (current: TransactionRecord): TrackOutcome => ({
      transactionId: id,
      status: current.status,
      explorerUrl: url,
      record: current,
    });
    if (TERMINAL_STATUSES.has(stored.status)) return okAsync(outcome(stored));
    return refreshStatuses(deps, [stored]).map(([current]) => outcome(current!));
  });
}

/** A transaction the service did not record (or another tenant's): what the chain says of it. */
function trackUnrecorded(
  deps: Pick<ActionDeps, 'chain' | 'store'>,
  id: Signature,
  url: string,
  tenant: TenantId | undefined,
): ResultAsync<TrackOutcome, DomainError> {
  return safeTry(async function* () {
    const notFound = () =>
      domainError('TRANSACTION_NOT_FOUND', `transaction ${id} is not known to this service or the chain`);
    if (tenant !== undefined && (yield* deps.store.transactions.get(id))) return err(notFound());
    const [onChain] = yield* deps.chain.getStatuses([id]);
    if (!onChain) return err(notFound());
    const status: TxStatus = onChain.error ? 'failed' : onChain.commitment;
    return ok({ transactionId: id, status, explorerUrl: url });
  });
}
