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

/**
 * Base58 strings found lately to decode to a given number of bytes. Requests name the same keys
 * and transaction ids again and again (a client tracks one transaction until it settles; its
 * wallet, the mints and the pools' vaults come back in every quote), and the base58 check was 4%
 * of a tracking read and 2% of a firm quote in profiles. Only well-formed
 * strings are remembered, first in first out, so a malformed one is judged afresh every time and
 * gets its own message.
 */
class WellFormed {
  private readonly seen: Recent<string, true>;

  constructor(
    private readonly bytes: number,
    max: number,
  ) {
    this.seen = new Recent(max);
  }

  /** Nothing when `value` is well-formed; else what it decoded to (nothing: not base58). */
  flaw(value: string): { decoded: Uint8Array | undefined } | undefined {
    if (this.seen.has(value)) return undefined;
    const decoded = decodeBase58(value);
    if (decoded?.length !== this.bytes) return { decoded };
    this.seen.remember(value, true);
    return undefined;
  }
}

const publicKeys = new WellFormed(32, 8_192);
const signatures = new WellFormed(64, 4_096);

export function isPublicKey(value: unknown): value is PublicKey {
  return typeof value === 'string' && publicKeys.flaw(value) === undefined;
}

export function parsePublicKey(value: unknown, field = 'account'): Result<PublicKey, DomainError> {
  if (typeof value !== 'string' || value.length === 0) {
    return err(domainError('INVALID_PUBLIC_KEY', `${field} must be a base58 public key string`));
  }
  const flaw = publicKeys.flaw(value);
  if (!flaw) return ok(value as PublicKey);
  if (!flaw.decoded) return err(domainError('INVALID_PUBLIC_KEY', `${field} is not valid base58`));
  return err(
    domainError('INVALID_PUBLIC_KEY', `${field} must decode to 32 bytes, got ${flaw.decoded.length}`),
  );
}

export function isSignature(value: unknown): value is Signature {
  return typeof value === 'string' && signatures.flaw(value) === undefined;
}

export function parseSignature(value: unknown): Result<Signature, DomainError> {
  if (typeof value !== 'string' || value.length === 0) {
    return err(domainError('INVALID_TRANSACTION_ID', 'transactionId must be a base58 signature string'));
  }
  const flaw = signatures.flaw(value);
  if (!flaw) return ok(value as Signature);
  if (!flaw.decoded) return err(domainError('INVALID_TRANSACTION_ID', 'transactionId is not valid base58'));
  return err(
    domainError(
      'INVALID_TRANSACTION_ID',
      `transactionId must decode to 64 bytes, got ${flaw.decoded.length}`,
    ),
  );
}
