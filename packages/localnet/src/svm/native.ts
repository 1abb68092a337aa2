import type { LiteSVM } from 'litesvm';
import type { LiteSvm as NativeLiteSvm } from 'litesvm/dist/internal';

/**
 * LiteSVM's native object behind its kit-flavoured wrapper. The wrapper converts every address
 * through a base58 codec (~60 µs a call: a balance read costs more than executing a transfer);
 * the native methods take raw bytes (~1 µs). The project pins litesvm 1.5.0 exactly, so this
 * private field is a known quantity; a version without it fails at start-up, not mid-transaction.
 */
export type NativeSvm = NativeLiteSvm;

export function nativeOf(svm: LiteSVM): NativeSvm {
  const inner = (svm as unknown as { inner?: NativeSvm }).inner;
  if (!inner || typeof inner.getAccount !== 'function' || typeof inner.sendLegacyTransaction !== 'function') {
    throw new Error('unsupported litesvm version: expected 1.5.x with a native `inner` object');
  }
  return inner;
}
