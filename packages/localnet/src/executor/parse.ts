import { type ParsedTransaction, parseTransaction } from '@token-actions/core';
import { err, ok, type Result } from 'neverthrow';
import type { WireRejection } from '../types.js';

export function rejection(
  reason: WireRejection['reason'],
  message: string,
  extra: Partial<Pick<WireRejection, 'err' | 'logs' | 'unitsConsumed' | 'code'>> = {},
): WireRejection {
  return {
    reason,
    code: reason === 'unavailable' ? 'CHAIN_UNAVAILABLE' : 'INVALID_INPUT',
    message,
    ...extra,
  };
}

export const signatureFailure = () =>
  rejection('signature', 'transaction signature verification failed', { err: 'SignatureFailure' });

/** Parses wire bytes before LiteSVM sees them: its native decoder aborts the process on bad input. */
export function parseWire(wire: Uint8Array): Result<ParsedTransaction, WireRejection> {
  if (!(wire instanceof Uint8Array)) return err(rejection('malformed', 'transaction must be bytes'));
  try {
    return ok(parseTransaction(wire));
  } catch (cause) {
    return err(rejection('malformed', `malformed transaction: ${(cause as Error).message}`));
  }
}
