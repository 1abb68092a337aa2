import type { Currencies } from '../../domain/currency.js';
import type { PublicKey } from '../../domain/public-key.js';
import type { ChainPort } from '../../ports/chain.js';
import type { ClockPort, IdsPort, MacPort } from '../../ports/clock.js';
import type { FeeOraclePort } from '../../ports/fee-oracle.js';
import type { KeystorePort } from '../../ports/keystore.js';
import type { EscrowExpiryAction, StorePort } from '../../ports/store.js';

/** The service's own accounts, all held in the keystore. */
export interface ServiceAccounts {
  /** Receives donations and pays every fee (the service sponsors fees). */
  readonly treasury: PublicKey;
  /** Holds escrowed funds until release or refund. */
  readonly escrowVault: PublicKey;
  /** Mint and update authority of minted NFTs. */
  readonly mintAuthority: PublicKey;
}

export interface Policies {
  readonly previewTtlMs: number;
  readonly escrowTtlMs: number;
  readonly escrowExpiryAction: EscrowExpiryAction;
}

/** Everything a use-case may need; each use-case takes only the part it uses (`Pick`). */
export interface ActionDeps {
  readonly chain: ChainPort;
  readonly keystore: KeystorePort;
  readonly store: StorePort;
  readonly fees: FeeOraclePort;
  readonly clock: ClockPort;
  readonly ids: IdsPort;
  readonly mac: MacPort;
  readonly currencies: Currencies;
  readonly accounts: ServiceAccounts;
  readonly policies: Policies;
}

export const DEFAULT_POLICIES: Policies = {
  previewTtlMs: 120_000,
  escrowTtlMs: 7 * 24 * 3600_000,
  escrowExpiryAction: 'refund',
};
