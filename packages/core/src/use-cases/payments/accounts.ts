import { err, errAsync, ok, okAsync, ResultAsync, safeTry } from 'neverthrow';
import { z } from 'zod';
import { formatAmount, parseAmount } from '../../domain/money.js';
import { type PublicKey, parsePublicKey } from '../../domain/public-key.js';
import type { TenantId } from '../../domain/tenant.js';
import { type DomainError, domainError } from '../../errors.js';
import type { ActionDeps } from './deps.js';
import { amountField, currencyField } from './request-fields.js';

export interface Balance {
  readonly currency: string;
  /** Base units as a decimal string of an integer. */
  readonly baseUnits: string;
  /** Human amount, e.g. "1.5". */
  readonly amount: string;
  readonly decimals: number;
}

export const AccountCreateRequest = z
  .strictObject({
    label: z
      .string()
      .max(64)
      .optional()
      .meta({ description: 'Your name for it (at most 64 characters)', example: 'donations wallet' }),
  })
  .meta({ id: 'AccountCreateRequest' });
export type AccountCreateRequest = z.infer<typeof AccountCreateRequest>;

/** A new custodial account of `tenant`: its key is generated and kept, encrypted, in the keystore. */
export function createAccount(
  deps: Pick<ActionDeps, 'keystore'>,
  input: AccountCreateRequest,
  tenant: TenantId,
) {
  return deps.keystore.create(input.label, tenant).map((publicKey) => ({ publicKey }));
}

/**
 * Whether the caller may see `publicKey` through the accounts routes, and whether it is managed for
 * it. Balances are public chain data, so any key the service does not hold is answered; a managed
 * account of another tenant is not found, as if it did not exist.
 */
function visibility(
  deps: Pick<ActionDeps, 'keystore'>,
  publicKey: PublicKey,
  tenant: TenantId,
): ResultAsync<{ managed: boolean }, DomainError> {
  return deps.keystore.lookup(publicKey).andThen((held) => {
    if (!held) return okAsync({ managed: false });
    if (held.tenant !== undefined && held.tenant !== tenant) {
      return errAsync(domainError('ACCOUNT_NOT_FOUND', `account ${publicKey} was not found`));
    }
    return okAsync({ managed: true });
  });
}

export function getBalances(
  deps: Pick<ActionDeps, 'chain' | 'currencies' | 'keystore'>,
  input: { readonly publicKey: string; readonly tenant: TenantId },
): ResultAsync<{ publicKey: string; managed: boolean; balances: Balance[] }, DomainError> {
  return safeTry(async function* () {
    const publicKey = yield* parsePublicKey(input.publicKey, 'publicKey');
    const { managed } = yield* visibility(deps, publicKey, input.tenant);
    const balances = yield* ResultAsync.combine(
      deps.currencies.all.map((c) =>
        deps.chain.getBalance(publicKey, c).map((units) => ({
          currency: c.code,
          baseUnits: units.toString(),
          amount: formatAmount(units, c.decimals),
          decimals: c.decimals,
        })),
      ),
    );
    return ok({ publicKey, managed, balances });
  });
}

/** The body of an airdrop; the account comes from the route. */
export const AirdropRequest = z
  .strictObject({ currency: currencyField, amount: amountField })
  .meta({ id: 'AirdropRequest' });
export type AirdropRequest = z.infer<typeof AirdropRequest>;

/** Localnet faucet: SOL by airdrop, tokens by minting. The chain refuses it on real clusters. */
export function airdrop(
  deps: Pick<ActionDeps, 'chain' | 'currencies' | 'keystore'>,
  input: AirdropRequest & { readonly publicKey: string; readonly tenant: TenantId },
) {
  return safeTry(async function* () {
    const publicKey = yield* parsePublicKey(input.publicKey, 'publicKey');
    yield* visibility(deps, publicKey, input.tenant);
    const currency = yield* deps.currencies.parse(input.currency);
    const amount = yield* parseAmount(input.amount, currency);
    const transactionId = yield* deps.chain.airdrop(publicKey, currency, amount);
    return ok({
      transactionId,
      message: `Airdropped ${formatAmount(amount, currency.decimals)} ${currency.code} to ${publicKey}`,
    });
  });
}

/**
 * An NFT read back from the chain. One the service minted belongs to the tenant that minted it:
 * for any other it is not found. A mint the service never made is public chain data, read for anyone.
 */
export function getNft(
  deps: Pick<ActionDeps, 'chain' | 'store'>,
  input: { readonly mint: string; readonly tenant: TenantId },
) {
  return safeTry(async function* () {
    const mint = yield* parsePublicKey(input.mint, 'mint');
    const own = yield* deps.store.transactions.findMint(mint, input.tenant);
    if (!own && (yield* deps.store.transactions.findMint(mint))) {
      return err(domainError('NFT_NOT_FOUND', 'no NFT mint at that address'));
    }
    const nft = yield* deps.chain.getNft(mint);
    return nft ? ok(nft) : err(domainError('NFT_NOT_FOUND', 'no NFT mint at that address'));
  });
}
