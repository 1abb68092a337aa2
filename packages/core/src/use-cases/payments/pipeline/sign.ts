import { okAsync, ResultAsync } from 'neverthrow';
import type { PublicKey, Signature } from '../../../domain/public-key.js';
import { assembleTransaction, transactionIdOf } from '../../../domain/wire.js';
import type { DomainError } from '../../../errors.js';
import type { PreparedTransaction } from '../../../ports/chain.js';
import type { ActionDeps } from '../deps.js';

export interface SignedTransaction {
  readonly id: Signature;
  readonly wire: Uint8Array;
}

/** Signs with every managed signer the adapter has not signed for already. The slot of `external`
 * (a wallet that signs for itself, later) stays empty: 64 zero bytes, as wallets expect. */
export function signPrepared(
  deps: Pick<ActionDeps, 'keystore'>,
  prepared: Pick<PreparedTransaction, 'message' | 'signers' | 'presigned'>,
  external?: PublicKey,
): ResultAsync<SignedTransaction, DomainError> {
  const signatures = prepared.signers.map((signer) => {
    if (signer === external) return okAsync<Uint8Array, DomainError>(new Uint8Array(64));
    const presigned = prepared.presigned[signer];
    return presigned
      ? okAsync<Uint8Array, DomainError>(presigned)
      : deps.keystore.sign(signer, prepared.message);
  });
  return ResultAsync.combine(signatures).map((sigs) => ({
    id: transactionIdOf(sigs),
    wire: assembleTransaction(prepared.message, sigs),
  }));
}
