import { encodeBase58 } from '@token-actions/core';

/** agave's `UiNonceState` for an initialized durable-nonce account (`Versions` -> `State` -> `Data`, bincode). */
export interface ParsedNonce {
  readonly type: 'initialized';
  readonly info: {
    readonly authority: string;
    readonly blockhash: string;
    readonly feeCalculator: { readonly lamportsPerSignature: string };
  };
}

/** u32 version (0 legacy, 1 current) + u32 state + authority + durable nonce + u64 lamports per signature. */
const NONCE_SIZE = 80;
const INITIALIZED = 1;

/**
 * A system-owned account parses only as an initialized nonce: agave refuses an uninitialized one so
 * that any allocated, empty system account is not shown as a nonce.
 */
export function parseNonce(data: Uint8Array): ParsedNonce | undefined {
  if (data.length < NONCE_SIZE) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const version = view.getUint32(0, true);
  if (version > 1 || view.getUint32(4, true) !== INITIALIZED) return undefined;
  return {
    type: 'initialized',
    info: {
      authority: encodeBase58(data.subarray(8, 40)),
      blockhash: encodeBase58(data.subarray(40, 72)),
      feeCalculator: { lamportsPerSignature: view.getBigUint64(72, true).toString() },
    },
  };
}
