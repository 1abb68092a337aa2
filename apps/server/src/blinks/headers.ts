import { ACTIONS_CORS_HEADERS, BLOCKCHAIN_IDS } from '@solana/actions';
import { ACTION_VERSION, type ClusterInfo, solanaChainId } from '@token-actions/core';

/**
 * The headers of every action answer: the CORS set of `@solana/actions` (any origin: blink
 * clients and wallets run on origins nobody can list), the spec version and the chain.
 * `Content-Type` is left to each answer (an OPTIONS answer has no body, the icon is SVG).
 */
export function actionHeaders(chainId: string): Record<string, string> {
  const { 'Content-Type': _json, ...cors } = ACTIONS_CORS_HEADERS;
  return { ...cors, 'X-Action-Version': ACTION_VERSION, 'X-Blockchain-Ids': chainId };
}

const KNOWN: Partial<Record<ClusterInfo['name'], string>> = {
  'mainnet-beta': BLOCKCHAIN_IDS.mainnet,
  devnet: BLOCKCHAIN_IDS.devnet,
  testnet: BLOCKCHAIN_IDS.testnet,
};

/**
 * The CAIP-2 id of the chain the service sends to. Public clusters have fixed ids; a localnet or
 * custom cluster has its own genesis hash, given by the composition (the embedded localnet knows
 * it) or asked of the cluster's JSON-RPC once (`getGenesisHash`). A failed lookup is not cached.
 */
export function chainIdResolver(
  cluster: ClusterInfo,
  genesisHash?: string,
  fetchFn: typeof fetch = fetch,
): () => Promise<string> {
  const known = genesisHash ? solanaChainId(genesisHash) : KNOWN[cluster.name];
  if (known) return () => Promise.resolve(known);
  let pending: Promise<string> | undefined;
  const lookup = async () => {
    const res = await fetchFn(cluster.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getGenesisHash' }),
    });
    const body = (await res.json()) as { result?: unknown };
    if (typeof body.result !== 'string') throw new Error('getGenesisHash returned no hash');
    return solanaChainId(body.result);
  };
  return () => {
    pending ??= lookup().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
