import { METHOD_NOT_FOUND, RpcError } from '../errors.js';
import type { Methods } from './context.js';

/**
 * Methods real clusters no longer answer (agave 2.0 removed them; the localnet reports itself as
 * 2.2) and the ones a one-node localnet has nothing to answer with. Each answers -32601, as an
 * unknown method does, with the reason after "Method not found" so a developer sees why.
 */
export const UNSUPPORTED_METHODS: Readonly<Record<string, string>> = {
  getStakeActivation: 'removed in agave 2.0; read the stake account and the stake history sysvar instead',
  getFeeCalculatorForBlockhash: 'removed in agave 2.0; use isBlockhashValid and getFeeForMessage',
  getConfirmedSignaturesForAddress2: 'removed in agave 2.0; use getSignaturesForAddress',
  getConfirmedBlock: 'removed in agave 2.0; use getBlock',
  getConfirmedBlocks: 'removed in agave 2.0; use getBlocks',
  getConfirmedBlocksWithLimit: 'removed in agave 2.0; use getBlocksWithLimit',
  getConfirmedTransaction: 'removed in agave 2.0; use getTransaction',
  getRecentBlockhash: 'removed in agave 2.0; use getLatestBlockhash',
  getFees: 'removed in agave 2.0; use getFeeForMessage',
  getFeeRateGovernor: 'removed in agave 2.0',
  getSnapshotSlot: 'removed in agave 2.0; use getHighestSnapshotSlot',
};

export function unsupportedMethods(): Methods {
  return Object.fromEntries(
    Object.entries(UNSUPPORTED_METHODS).map(([method, reason]) => [
      method,
      () => {
        throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${method} was ${reason}`);
      },
    ]),
  );
}
