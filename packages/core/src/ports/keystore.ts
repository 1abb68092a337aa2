import type { ResultAsync } from 'neverthrow';
import type { PublicKey } from '../domain/public-key.js';
import type { DomainError } from '../errors.js';

/** Custodial keys: secrets never leave the keystore, only signatures do. */
export interface KeystorePort {
  /** Creates a new managed keypair and returns its public key. */
  create(label?: string): ResultAsync<PublicKey, DomainError>;
  /** The key stored under a well-known name (treasury, escrow vault, ...), created on first use. */
  named(name: string): ResultAsync<PublicKey, DomainError>;
  has(publicKey: PublicKey): ResultAsync<boolean, DomainError>;
  /** Ed25519 signature of `message`; UNKNOWN_ACCOUNT when the key is not held. */
  sign(publicKey: PublicKey, message: Uint8Array): ResultAsync<Uint8Array, DomainError>;
}
