import type { ResultAsync } from 'neverthrow';
import type { PriorityLevel } from '../../../domain/priority.js';
import type { PublicKey } from '../../../domain/public-key.js';
import type { DomainError } from '../../../errors.js';
import type { ChainIntent, PreparedTransaction } from '../../../ports/chain.js';
import type { ActionDeps } from '../deps.js';

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
