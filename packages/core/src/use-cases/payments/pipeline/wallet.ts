import { err, errAsync, ok, okAsync, type ResultAsync, safeTry } from 'neverthrow';
import { formatAmount } from '../../../domain/money.js';
import { type PublicKey, parsePublicKey, type Signature } from '../../../domain/public-key.js';
import { DEFAULT_TENANT_ACCESS } from '../../../domain/tenant.js';
import { type DomainError, domainError } from '../../../errors.js';
import type { ActionDeps } from '../deps.js';
import { parseAction } from './parse.js';
import type { Action, ActionType } from './payment.js';
import { type Plan, planAction } from './plan.js';
import { prepareIntent } from './prepare.js';
import { recordPlan } from './record.js';
import { signPrepared } from './sign.js';

/** A transaction prepared for a self-custodied wallet to sign and send (a Solana Action). */
export interface WalletTransaction {
  /** Wire bytes: every signature but the wallet's is made; the wallet's slot is empty. */
  readonly transaction: Uint8Array;
  /** The fee payer's signature, already made, hence known before the wallet signs. */
  readonly transactionId: Signature;
  readonly message: string;
  readonly action: Action;
  readonly wallet: PublicKey;
  readonly lastValidBlockHeight: bigint;
  readonly feeLamports: bigint;
  readonly escrowId?: string;
  readonly mint?: PublicKey;
}

/**
 * A wallet that the service holds a key for is not a self-custodied wallet: the treasury would
 * otherwise sign the whole of a transaction that anyone can ask for.
 */
function requireSelfCustodied(
  deps: Pick<ActionDeps, 'keystore' | 'accounts'>,
  wallet: PublicKey,
): ResultAsync<PublicKey, DomainError> {
  const { treasury, escrowVault, mintAuthority } = deps.accounts;
  const refuse = () =>
    domainError(
      'INVALID_INPUT',
      `account ${wallet} is held by this service; an action is signed by a self-custodied wallet`,
    );
  if (wallet === treasury || wallet === escrowVault || wallet === mintAuthority) return errAsync(refuse());
  return deps.keystore.has(wallet).andThen((held) => (held ? errAsync(refuse()) : okAsync(wallet)));
}

/** The wallet pays (or, for a mint, receives and co-signs); the treasury still pays the fee. */
function planForWallet(deps: Pick<ActionDeps, 'accounts'>, action: Action, wallet: PublicKey): Plan {
  const plan = planAction(deps, action);
  return plan.intent.kind === 'mint_nft' ? { ...plan, intent: { ...plan.intent, cosigner: wallet } } : plan;
}

function describeForWallet(action: Action, id: string, mint?: PublicKey): string {
  const track = `Transaction ${id}; the service pays the network fee.`;
  switch (action.type) {
    case 'mint':
      return `Mint the NFT "${action.name}" (${action.symbol}) to your wallet as ${mint}. ${track}`;
    case 'donation':
      return `Donate ${formatAmount(action.amount, action.currency.decimals)} ${action.currency.code} to the project. ${track}`;
    case 'charity_donation':
    case 'merchant_payment': {
      const what = action.type === 'charity_donation' ? 'Donate' : 'Pay';
      const escrow = action.useEscrow ? ' through escrow' : '';
      return `${what} ${formatAmount(action.amount, action.currency.decimals)} ${action.currency.code} to ${action.to}${escrow}. ${track}`;
    }
  }
}

/**
 * The payment pipeline for a wallet the service does not hold: the same parse, plan and prepare steps
 * (amounts in base units, priority pricing, escrow) as interface A, with the treasury as fee payer.
 * The service signs its own slots (fee payer, mint authority, a fresh mint) and records the
 * transaction as pending without sending it; the wallet signs its slot and sends it. The id is the
 * treasury's signature, so tracking follows the transaction as soon as the wallet lands it.
 */
export function prepareForWallet(
  deps: ActionDeps,
  type: ActionType,
  raw: Record<string, unknown>,
  account: unknown,
): ResultAsync<WalletTransaction, DomainError> {
  return safeTry(async function* () {
    const wallet = yield* parsePublicKey(account, 'account');
    yield* requireSelfCustodied(deps, wallet);
    const fields = type === 'mint' ? { ...raw, owner: wallet } : { ...raw, account: wallet };
    const action = yield* parseAction(deps, type, fields);
    const plan = planForWallet(deps, action, wallet);
    const prepared = yield* prepareIntent(deps, plan.intent, action.priority);
    const slot = prepared.signers.indexOf(wallet);
    if (slot <= 0) {
      // Never happens with the intents above; checked because signing slot 0 for anyone else
      // would give away a transaction the treasury pays for entirely.
      return err(domainError('INTERNAL', 'the wallet is not a non-paying signer of its transaction'));
    }
    const signed = yield* signPrepared(deps, prepared, wallet);
    const recorded = yield* recordPlan(deps, plan, prepared, signed, {
      // A wallet's action is the project's own, like the treasury payments: the default tenant's.
      tenant: DEFAULT_TENANT_ACCESS,
      awaitingWallet: true,
    });
    return ok({
      transaction: signed.wire,
      transactionId: signed.id,
      message: describeForWallet(action, signed.id, prepared.mint),
      action,
      wallet,
      lastValidBlockHeight: prepared.lastValidBlockHeight,
      feeLamports: prepared.feeLamports,
      ...(recorded.escrow ? { escrowId: recorded.escrow.id } : {}),
      ...(prepared.mint ? { mint: prepared.mint } : {}),
    });
  });
}
