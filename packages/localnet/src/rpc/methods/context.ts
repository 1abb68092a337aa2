import type { Localnet } from '../../localnet.js';

/** One JSON-RPC method: its params array in, its result out (throwing an RpcError to refuse). */
export type Handler = (params: unknown[]) => unknown;
export type Methods = Record<string, Handler>;

export const API_VERSION = '2.2.0';

/** `{context: {apiVersion, slot}, value}`, the envelope of every slot-bound answer. */
export function withContext(localnet: Localnet, value: unknown) {
  return { context: { apiVersion: API_VERSION, slot: localnet.slot() }, value };
}
