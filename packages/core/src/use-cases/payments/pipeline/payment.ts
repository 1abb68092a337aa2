import type { Currency } from '../../../domain/currency.js';
import { formatAmount } from '../../../domain/money.js';
import type { PriorityLevel } from '../../../domain/priority.js';
import type { PublicKey } from '../../../domain/public-key.js';
import type { Tenant } from '../../../domain/tenant.js';
import type { TransactionRecord } from '../../../domain/transaction.js';
import type { EscrowRecord } from '../../../ports/store.js';

// What the payment pipeline carries: a payment request once validated (an `Action`: a donation, a
// charity donation, a merchant payment or a mint), the caller it acts for, and what the caller
// learns once it is sent. The names keep the word "action" because the HTTP API and the package's
// exports already use them.

export const ACTION_TYPES = ['donation', 'charity_donation', 'merchant_payment', 'mint'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

interface Payment {
  readonly from: PublicKey;
  readonly currency: Currency;
  readonly amount: bigint;
  readonly priority: PriorityLevel;
}

/** A validated request to move value or mint, independent of the route that carried it. */
export type Action =
  | ({ readonly type: 'donation' } & Payment)
  | ({
      readonly type: 'charity_donation' | 'merchant_payment';
      readonly to: PublicKey;
      readonly useEscrow: boolean;
    } & Payment)
  | {
      readonly type: 'mint';
      readonly name: string;
      readonly symbol: string;
      readonly uri: string;
      readonly owner: PublicKey;
      readonly priority: PriorityLevel;
    };

export interface ActionOptions {
  /** Who is acting: the sender must be this tenant's, and what is recorded belongs to it. */
  readonly tenant: Tenant;
  /** The request's idempotency key, scoped to the caller: one transaction per key, even across crashes. */
  readonly requestKey?: string;
}

export interface ActionOutcome {
  readonly message: string;
  readonly transactionId: string;
  readonly action: Action;
  readonly escrowId?: string;
  readonly mint?: string;
  readonly feeLamports: bigint;
}

/** A sentence for the response's `message`, naming what was sent. */
function describeAction(action: Action): string {
  switch (action.type) {
    case 'mint':
      return `Minted NFT "${action.name}" (${action.symbol}) to ${action.owner}`;
    case 'donation':
      return `Donation of ${formatAmount(action.amount, action.currency.decimals)} ${action.currency.code} from ${action.from} submitted`;
    case 'charity_donation':
      return `Charity donation of ${formatAmount(action.amount, action.currency.decimals)} ${action.currency.code} to ${action.to} submitted${action.useEscrow ? ' into escrow' : ''}`;
    case 'merchant_payment':
      return `Payment of ${formatAmount(action.amount, action.currency.decimals)} ${action.currency.code} to ${action.to} submitted${action.useEscrow ? ' into escrow' : ''}`;
  }
}

/** What the caller learns of a recorded action; `via` tells how it was sent when not directly. */
export function outcomeOf(
  action: Action,
  recorded: { readonly record: TransactionRecord; readonly escrow?: EscrowRecord },
  via?: string,
): ActionOutcome {
  const { record, escrow } = recorded;
  return {
    message: via ? `${describeAction(action)} (${via})` : describeAction(action),
    transactionId: record.id,
    action,
    feeLamports: record.feeLamports,
    ...(escrow ? { escrowId: escrow.id } : {}),
    ...(record.mint ? { mint: record.mint } : {}),
  };
}
