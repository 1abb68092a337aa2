import { createInProcessChain, deriveKey } from '@token-actions/adapters';
import type { ChainPort, Currencies } from '@token-actions/core';
import { createLocalnet, type Localnet, type LocalnetRpc, startLocalnetRpc } from '@token-actions/localnet';
import { composeRpcChain } from './chain-rpc.js';
import type { ChainConfig, StateConfig } from './config/fragments.js';
import type { RuntimeLogger } from './logger.js';

export interface ComposedChain {
  readonly chain: ChainPort;
  readonly currencies: Currencies;
  readonly isLocalnet: boolean;
  readonly localnet?: Localnet;
  close(): Promise<void>;
}

/**
 * The chain: the `rpc` adapter when SOLANA_RPC_URL is set (mints from USDC_MINT / PROJECT_MINT, or
 * asked of a token-actions localnet), else the embedded LiteSVM localnet, keeping its state under
 * DATA_DIR/localnet and serving JSON-RPC on LOCALNET_RPC_PORT (its PubSub websocket on the port after it).
 */
export async function composeChain(
  config: ChainConfig & Pick<StateConfig, 'DATA_DIR'>,
  masterKey: Uint8Array,
  logger: RuntimeLogger,
): Promise<ComposedChain> {
  if (config.SOLANA_RPC_URL) {
    return { ...(await composeRpcChain(config, config.SOLANA_RPC_URL)), close: async () => {} };
  }

  const localnet = await createLocalnet({
    seed: deriveKey(masterKey, 'localnet-seed'),
    projectTicker: config.PROJECT_TICKER,
    slotIntervalMs: config.SLOT_INTERVAL_MS,
    finalityDepthSlots: config.FINALITY_DEPTH_SLOTS,
    dataDir: config.DATA_DIR,
    rpcUrl: `http://127.0.0.1:${config.LOCALNET_RPC_PORT}`,
  });
  let rpc: LocalnetRpc | undefined;
  if (config.LOCALNET_RPC) {
    const takeFreePort = (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') throw error;
      // Another localnet (or server) holds the port or the websocket's (port + 1): serve on a free
      // pair rather than not at all.
      logger.warn(
        { port: config.LOCALNET_RPC_PORT },
        'LOCALNET_RPC_PORT (or the websocket port after it) in use: JSON-RPC on a free port',
      );
      return startLocalnetRpc(localnet, { port: 0 });
    };
    try {
      rpc = await startLocalnetRpc(localnet, { port: config.LOCALNET_RPC_PORT }).catch(takeFreePort);
    } catch (error) {
      localnet.close();
      throw error;
    }
    localnet.setRpcUrl(rpc.url, rpc.wsUrl);
    logger.info(
      { rpcUrl: rpc.url, wsUrl: rpc.wsUrl, stateDir: localnet.stateDir },
      'localnet JSON-RPC and websocket listening',
    );
  }
  return {
    chain: createInProcessChain(localnet),
    currencies: localnet.currencies,
    isLocalnet: true,
    localnet,
    async close() {
      await rpc?.close();
      localnet.close();
    },
  };
}
