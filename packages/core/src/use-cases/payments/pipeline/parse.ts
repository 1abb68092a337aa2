import { err, ok, type Result } from 'neverthrow';
import { parseAmount } from '../../../domain/money.js';
import { type PriorityLevel, parsePriority } from '../../../domain/priority.js';
import { parsePublicKey } from '../../../domain/public-key.js';
import { type DomainError, domainError } from '../../../errors.js';
import type { ActionDeps } from '../deps.js';
import { ACTION_TYPES, type Action, type ActionType } from './payment.js';

/** Limits follow the widely used NFT metadata standard so wallets display the values whole. */
export const NFT_LIMITS = { name: 32, symbol: 10, uri: 200 } as const;

/**
 * Where NFT metadata may live: wallets and marketplaces fetch and show `uri`, so schemes that run
 * code or read local files (`javascript:`, `data:`, `file:`) never reach the chain.
 */
export const NFT_URI_SCHEMES: readonly string[] = ['https:', 'ipfs:', 'ar:'];

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
  if (field === 'uri' && !NFT_URI_SCHEMES.includes(value.slice(0, value.indexOf(':') + 1).toLowerCase())) {
    return err(domainError('INVALID_INPUT', `uri must use one of ${NFT_URI_SCHEMES.join(' ')}`));
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

function rejectUnknownType(type: unknown): Result<ActionType, DomainError> {
  return typeof type === 'string' && (ACTION_TYPES as readonly string[]).includes(type)
    ? ok(type as ActionType)
    : err(domainError('INVALID_INPUT', `transactionType must be one of ${ACTION_TYPES.join(', ')}`));
}

function parseDetails(value: unknown): Result<Record<string, unknown>, DomainError> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? ok(value as Record<string, unknown>)
    : err(domainError('INVALID_INPUT', 'details must be an object'));
}

/** The action a preview request describes: details plus the sender, who also owns a minted NFT by default. */
export function parsePreviewRequest(
  deps: Pick<ActionDeps, 'currencies' | 'accounts'>,
  input: { readonly account: unknown; readonly transactionType: unknown; readonly details: unknown },
): Result<{ type: ActionType; details: Record<string, unknown>; action: Action }, DomainError> {
  return rejectUnknownType(input.transactionType).andThen((type) =>
    parseDetails(input.details).andThen((details) => {
      if (typeof input.account !== 'string') {
        return err(domainError('INVALID_PUBLIC_KEY', 'account must be a base58 public key string'));
      }
      const raw: Record<string, unknown> =
        type === 'mint' ? { owner: input.account, ...details } : { ...details, account: input.account };
      return parseAction(deps, type, raw).map((action) => ({ type, details, action }));
    }),
  );
}
