import { loadOrCreateMasterKey, MASTER_KEY_ENV, type MasterKey } from '@token-actions/adapters';
import type { KeysConfig, StateConfig } from './config/fragments.js';

/**
 * The keystore master key from the parsed configuration: KEYSTORE_MASTER_KEY when it was set,
 * otherwise DATA_DIR/master.key (generated on first start). The process environment is not read
 * again here: the configuration was parsed once, and is the only source.
 */
export async function loadMasterKey(config: StateConfig & KeysConfig): Promise<MasterKey> {
  if (config.KEYSTORE_MASTER_KEY) {
    return {
      key: config.KEYSTORE_MASTER_KEY,
      generated: false,
      source: { kind: 'env', variable: MASTER_KEY_ENV },
    };
  }
  return loadOrCreateMasterKey({ dataDir: config.DATA_DIR, env: {} });
}
