import { ok, ResultAsync, safeTry } from 'neverthrow';
import { formatAmount, parseAmount } from '../domain/money.js';
import { parsePublicKey } from '../domain/public-key.js';
import type { DomainError } from '../errors.js';
import type { ActionDeps } from './deps.js';

export interface Balance {
  readonly currency: string;
  /** Base units as a decimal string of an integer. */
  readonly baseUnits: string;
  /** Human amount, e.g. "1.5". */
  readonly amount: string;
  readonly decimals: number;
}

export function createAccount(deps: Pick<ActionDeps, 'keystore'>, input: { label?: string } = {}) {
  return deps.keystore.create(input.label).map((publicKey) => ({ publicKey }));
}

export function getBalances(
  deps: Pick<ActionDeps, 'chain' | 'currencies' | 'keystore'>,
  input: { publicKey: unknown },
): ResultAsync<{ publicKey: string; managed: boolean; balances: Balance[] }, DomainError> {
  return safeTry(async function* () {
    const publicKey = yield* parsePublicKey(input.publicKey, 'publicKey');
    const managed = yield* deps.keystore.has(publicKey);
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

/** Localnet faucet: SOL by airdrop, tokens by minting. The chain refuses it on real clusters. */
export function airdrop(
  deps: Pick<ActionDeps, 'chain' | 'currencies'>,
  input: { publicKey: unknown; currency: unknown; amount: unknown },
) {
  return safeTry(async function* () {
    const publicKey = yield* parsePublicKey(input.publicKey, 'publicKey');
    const currency = yield* deps.currencies.parse(input.currency);
    const amount = yield* parseAmount(input.amount, currency);
    const transactionId = yield* deps.chain.airdrop(publicKey, currency, amount);
    return ok({
      transactionId,
      message: `Airdropped ${formatAmount(amount, currency.decimals)} ${currency.code} to ${publicKey}`,
    });
  });
}

export function getNft(deps: Pick<ActionDeps, 'chain'>, input: { mint: unknown }) {
  return safeTry(async function* () {
    const mint = yield* parsePublicKey(input.mint, 'mint');
    const nft = yield* deps.chain.getNft(mint);
    return ok(nft);
  });
}
