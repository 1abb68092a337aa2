import type { PublicKey } from '../../../domain/public-key.js';
import type { ChainIntent } from '../../../ports/chain.js';
import type { EscrowPurpose } from '../../../ports/store.js';
import type { ActionDeps } from '../deps.js';
import type { Action } from './payment.js';
import type { RecordMeta } from './record.js';

/** How an action becomes one transaction: the chain intent, the outbox metadata and any escrow. */
export interface Plan {
  readonly action: Action;
  readonly intent: ChainIntent;
  /** The tenant is the caller's, added when the plan is recorded. */
  readonly meta: Omit<RecordMeta, 'tenant'>;
  readonly escrow?: { readonly purpose: EscrowPurpose; readonly beneficiary: PublicKey };
}

export function planAction(deps: Pick<ActionDeps, 'accounts'>, action: Action): Plan {
  switch (action.type) {
    case 'mint':
      return {
        action,
        intent: {
          kind: 'mint_nft',
          authority: deps.accounts.mintAuthority,
          owner: action.owner,
          name: action.name,
          symbol: action.symbol,
          uri: action.uri,
        },
        meta: { kind: 'mint', to: action.owner, priority: action.priority },
      };
    case 'donation':
      return {
        action,
        intent: {
          kind: 'transfer',
          currency: action.currency,
          from: action.from,
          to: deps.accounts.treasury,
          amount: action.amount,
        },
        meta: {
          kind: 'donation',
          currency: action.currency.code,
          amount: action.amount,
          from: action.from,
          to: deps.accounts.treasury,
          priority: action.priority,
        },
      };
    case 'charity_donation':
    case 'merchant_payment': {
      const to = action.useEscrow ? deps.accounts.escrowVault : action.to;
      return {
        action,
        intent: { kind: 'transfer', currency: action.currency, from: action.from, to, amount: action.amount },
        meta: {
          kind: action.type,
          currency: action.currency.code,
          amount: action.amount,
          from: action.from,
          to,
          priority: action.priority,
        },
        ...(action.useEscrow ? { escrow: { purpose: action.type, beneficiary: action.to } } : {}),
      };
    }
  }
}
