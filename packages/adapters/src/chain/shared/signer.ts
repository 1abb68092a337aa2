/** A key the adapter itself holds (a fresh NFT mint). Node signs synchronously and natively;
 * WebCrypto (edge runtimes) only asynchronously, so callers await either. */
export interface LocalSigner {
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/** Makes a fresh key for a transaction that needs one. */
export type NewSigner = () => LocalSigner | Promise<LocalSigner>;
