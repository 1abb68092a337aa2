import { createRpcChain, discoverRpcCurrencies } from '@token-actions/adapters/edge';
import type { ChainPort, ClusterInfo, Currencies } from '@token-actions/core';
import type { ChainConfig } from './config/fragments.js';

export interface RpcComposedChain {
  readonly chain: ChainPort;
  readonly currencies: Currencies;
  readonly isLocalnet: boolean;
}

function clusterOf(url: string): ClusterInfo['name'] {
  const { hostname } = new URL(url);
  if (/devnet/.test(hostname)) return 'devnet';
  if (/testnet/.test(hostname)) return 'testnet';
  if (/mainnet/.test(hostname)) return 'mainnet-beta';
  if (hostname === 'localhost' || hostname === '[::1]' || hostname.startsWith('127.')) return 'localnet';
  return 'custom';
}

/**
 * The `rpc` adapter on `rpcUrl`: mints from USDC_MINT / PROJECT_MINT, or asked of a token-actions
 * localnet. Edge-safe: a Node process and an edge worker compose the same chain.
 */
export async function composeRpcChain(
  config: Pick<ChainConfig, 'SOLANA_CLUSTER' | 'USDC_MINT' | 'PROJECT_MINT' | 'PROJECT_TICKER'>,
  rpcUrl: string,
): Promise<RpcComposedChain> {
  const discovered = await discoverRpcCurrencies({
    rpcUrl,
    ...(config.USDC_MINT ? { stableMint: config.USDC_MINT } : {}),
    ...(config.PROJECT_MINT ? { projectMint: config.PROJECT_MINT } : {}),
    projectTicker: config.PROJECT_TICKER,
  });
  const cluster = config.SOLANA_CLUSTER ?? (discovered.localnet ? 'localnet' : clusterOf(rpcUrl));
  const chain = createRpcChain({ rpcUrl, cluster, currencies: discovered.currencies });
  return { chain, currencies: discovered.currencies, isLocalnet: cluster === 'localnet' };
}
