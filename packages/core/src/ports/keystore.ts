import type { ResultAsync } from 'neverthrow';
import type { PublicKey } from '../domain/public-key.js';
import type { TenantId } from '../domain/tenant.js';
import type { DomainError } from '../errors.js';

/** Who a held key belongs to: a tenant's managed account, or (no tenant) one of the service's own keys. */
export interface HeldKey {
  readonly tenant?: TenantId;
}

/** Custodial keys: secrets never leave the keystore, only signatures do. */
export interface KeystorePort {
  /** Creates a new managed keypair for `tenant` (the default tenant when absent) and returns its public key. */
  create(label?: string, tenant?: TenantId): ResultAsync<PublicKey, DomainError>;
  /** The key stored under a well-known name (treasury, escrow vault, ...), created on first use. It belongs to no tenant. */
  named(name: string): ResultAsync<PublicKey, DomainError>;
  has(publicKey: PublicKey): ResultAsync<boolean, DomainError>;
  /** Whose key it is; null when the key is not held. */
  lookup(publicKey: PublicKey): ResultAsync<HeldKey | null, DomainError>;
  /** Ed25519 signature of `message`; UNKNOWN_ACCOUNT when the key is not held. */
  sign(publicKey: PublicKey, message: Uint8Array): ResultAsync<Uint8Array, DomainError>;
}
