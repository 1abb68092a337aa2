import { err, ok, type Result } from 'neverthrow';
import { type DomainError, domainError } from '../errors.js';
import { decodeBase58 } from './base58.js';
import { Recent } from './recent.js';

declare const publicKeyBrand: unique symbol;
declare const signatureBrand: unique symbol;
/** base58 of exactly 32 bytes. */
export type PublicKey = string & { readonly [publicKeyBrand]: true };
/** A transaction id: base58 of exactly 64 bytes (the fee payer's signature). */
export type Signature = string & { readonly [signatureBrand]: true };

export function isPublicKey(value: unknown): value is PublicKey {
  return typeof value === 'string' && decodeBase58(value)?.length === 32;
}

export function parsePublicKey(value: unknown, field = 'account'): Result<PublicKey, DomainError> {
  if (typeof value !== 'string' || value.length === 0) {
    return err(domainError('INVALID_PUBLIC_KEY', `${field} must be a base58 public key string`));
  }
  const bytes = decodeBase58(value);
  if (!bytes) return err(domainError('INVALID_PUBLIC_KEY', `${field} is not valid base58`));
  if (bytes.length !== 32) {
    return err(domainError('INVALID_PUBLIC_KEY', `${field} must decode to 32 bytes, got ${bytes.length}`));
  }
  return ok(value as PublicKey);
}

/**
 * Transaction ids found well-formed lately. A client tracks the same transaction many times
 * until it settles, and the base58 check was 4% of a tracking read (decision 101). Only strings
 * that decoded to 64 bytes are remembered, first in first out, so a malformed id is judged
 * afresh every time and gets its own message.
 */
const validSignatures = new Recent<string, true>(4_096);

export function isSignature(value: unknown): value is Signature {
  if (typeof value !== 'string') return false;
  if (validSignatures.has(value)) return true;
  if (decodeBase58(value)?.length !== 64) return false;
  validSignatures.remember(value, true);
  return true;
}

export function parseSignature(value: unknown): Result<Signature, DomainError> {
  if (typeof value !== 'string' || value.length === 0) {
    return err(domainError('INVALID_TRANSACTION_ID', 'transactionId must be a base58 signature string'));
  }
  if (validSignatures.has(value)) return ok(value as Signature);
  const bytes = decodeBase58(value);
  if (!bytes) return err(domainError('INVALID_TRANSACTION_ID', 'transactionId is not valid base58'));
  if (bytes.length !== 64) {
    return err(
      domainError('INVALID_TRANSACTION_ID', `transactionId must decode to 64 bytes, got ${bytes.length}`),
    );
  }
  validSignatures.remember(value, true);
  return ok(value as Signature);
}
