import { err, ok, okAsync, type Result, type ResultAsync, safeTry } from 'neverthrow';
import type { Currency } from '../domain/currency.js';
import { formatAmount, parseAmount } from '../domain/money.js';
import { type PriorityLevel, parsePriority } from '../domain/priority.js';
import { type PublicKey, parsePublicKey } from '../domain/public-key.js';
import type { TransactionRecord } from '../domain/transaction.js';
import { type DomainError, domainError } from '../errors.js';
import type { ChainIntent, PreparedTransaction } from '../ports/chain.js';
import type { EscrowPurpose, EscrowRecord } from '../ports/store.js';
import type { ActionDeps } from './deps.js';
import { type RecordMeta, recordAndSend, requireManaged, signPrepared } from './submit.js';

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

/** Limits follow the widely used NFT metadata standard so wallets display the values whole. */
export const NFT_LIMITS = { name: 32, symbol: 10, uri: 200 } as const;

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

function parseText(value: unknown, field: 'name' | 'symbol' | 'uri'): Result<string, DomainError> {
  if (typeof value !== 'string') return err(domainError('INVALID_INPUT', `${field} must be a string`));
  if (value.trim().length === 0) return err(domainError('INVALID_INPUT', `${field} must not be empty`));
  if (utf8Length(value) > NFT_LIMITS[field]) {
    return err(domainError('INVALID_INPUT', `${field} must be at most ${NFT_LIMITS[field]} bytes`));
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    return err(domainError('INVALID_INPUT', `${field} must not contain control characters`));
  }
  if (field === 'uri' && !/^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/.test(value)) {
    return err(domainError('INVALID_INPUT', 'uri must be an absolute URI such as https://... or ipfs://...'));
  }
  return ok(value);
}

function optionalPriority(value: unknown): Result<PriorityLevel, DomainError> {
  return value === undefined ? ok('Medium') : parsePriority(value);
}

function optionalBoolean(value: unknown, field: string): Result<boolean, DomainError> {
  if (value === undefined) return ok(false);
  return typeof value === 'boolean'
    ? ok(value)
    : err(domainError('INVALID_INPUT', `${field} must be a boolean`));
}

type Raw = Record<string, unknown>;

/**
 * Domain validation of each action type. The HTTP edge checks JSON types first; this layer owns
 * every rule about values (keys, amounts, currencies, limits), so library users get the same rules.
 */
export function parseAction(
  deps: Pick<ActionDeps, 'currencies' | 'accounts'>,
  type: ActionType,
  raw: Raw,
): Result<Action, DomainError> {
  switch (type) {
    case 'donation':
      return parsePublicKey(raw.account, 'account').andThen((from) =>
        deps.currencies
          .parse(raw.currency)
          .andThen((currency) =>
            parseAmount(raw.amount, currency).andThen((amount) =>
              parsePriority(raw.priority).map(
                (priority) => ({ type, from, currency, amount, priority }) as const,
              ),
            ),
          ),
      );
    case 'charity_donation':
    case 'merchant_payment': {
      const field = type === 'charity_donation' ? 'charity' : 'merchant';
      const from =
        raw.account === undefined ? ok(deps.accounts.treasury) : parsePublicKey(raw.account, 'account');
      return from.andThen((fromKey) =>
        parsePublicKey(raw[field], field).andThen((to) =>
          deps.currencies
            .parse(raw.currency)
            .andThen((currency) =>
              parseAmount(raw.amount, currency).andThen((amount) =>
                optionalPriority(raw.priority).andThen((priority) =>
                  optionalBoolean(raw.useEscrow, 'useEscrow').andThen((useEscrow) =>
                    to === fromKey
                      ? err(domainError('INVALID_INPUT', `${field} must differ from the paying account`))
                      : ok({ type, from: fromKey, to, currency, amount, priority, useEscrow } as const),
                  ),
                ),
              ),
            ),
        ),
      );
    }
    case 'mint': {
      const owner = raw.owner === undefined ? ok(deps.accounts.treasury) : parsePublicKey(raw.owner, 'owner');
      return parseText(raw.name, 'name').andThen((name) =>
        parseText(raw.symbol, 'symbol').andThen((symbol) =>
          parseText(raw.uri, 'uri').andThen((uri) =>
            owner.andThen((ownerKey) =>
              optionalPriority(raw.priority).map(
                (priority) => ({ type, name, symbol, uri, owner: ownerKey, priority }) as const,
              ),
            ),
          ),
        ),
      );
    }
  }
}

/** How an action becomes one transaction: the chain intent, the outbox metadata and any escrow. */
export interface Plan {
  readonly action: Action;
  readonly intent: ChainIntent;
  readonly meta: RecordMeta;
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

/** Checks the sender is managed (treasury-paid actions are always allowed). */
export function authorizeAction(
  deps: Pick<ActionDeps, 'keystore' | 'accounts'>,
  action: Action,
): ResultAsync<Action, DomainError> {
  if (action.type === 'mint' || action.from === deps.accounts.treasury) return okAsync(action);
  return requireManaged(deps, action.from).map(() => action);
}

export interface Executed {
  readonly record: TransactionRecord;
  readonly escrow?: EscrowRecord;
}

/**
 * Signs a prepared plan and records it (with the escrow it funds, in one write), then sends it.
 * With a requestKey, a re-run of the same request returns what the first run recorded.
 */
export function executePlan(
  deps: Pick<ActionDeps, 'keystore' | 'store' | 'chain' | 'clock' | 'ids' | 'policies'>,
  plan: Plan,
  prepared: PreparedTransaction,
  options: { readonly requestKey?: string } = {},
): ResultAsync<Executed, DomainError> {
  return safeTry(async function* () {
    const signed = yield* signPrepared(deps, prepared);
    let escrow: EscrowRecord | undefined;
    if (plan.escrow && plan.action.type !== 'mint') {
      const now = deps.clock.now();
      escrow = {
        id: deps.ids.next('esc'),
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
    const meta = {
      ...plan.meta,
      ...(escrow ? { escrowId: escrow.id } : {}),
      ...(options.requestKey ? { requestKey: options.requestKey } : {}),
    };
    const { record, duplicate } = yield* recordAndSend(deps, prepared, signed, meta, escrow);
    if (duplicate && record.escrowId) {
      const stored = yield* deps.store.escrows.get(record.escrowId);
      return ok(stored ? { record, escrow: stored } : { record });
    }
    return ok(escrow ? { record, escrow } : { record });
  });
}

/** A sentence for the response's `message`, naming what was sent. */
export function describeAction(action: Action): string {
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

export function rejectUnknownType(type: unknown): Result<ActionType, DomainError> {
  return typeof type === 'string' && (ACTION_TYPES as readonly string[]).includes(type)
    ? ok(type as ActionType)
    : err(domainError('INVALID_INPUT', `transactionType must be one of ${ACTION_TYPES.join(', ')}`));
}
