import type { Localnet } from '../../localnet.js';
import { accountMethods } from './accounts.js';
import { clusterMethods } from './cluster.js';
import type { Methods } from './context.js';
import { faucetMethods } from './faucet.js';
import { historyMethods } from './history.js';
import { tokenMethods } from './tokens.js';
import { transactionMethods } from './transactions.js';
import { unsupportedMethods } from './unsupported.js';
import { validatorMethods } from './validators.js';

export type { Handler, Methods } from './context.js';
export { UNSUPPORTED_METHODS } from './unsupported.js';

/** Every method the localnet answers, by name (and the removed ones, refused with their reason). */
export function localnetMethods(localnet: Localnet): Methods {
  return {
    ...unsupportedMethods(),
    ...clusterMethods(localnet),
    ...accountMethods(localnet),
    ...tokenMethods(localnet),
    ...transactionMethods(localnet),
    ...historyMethods(localnet),
    ...validatorMethods(localnet),
    ...faucetMethods(localnet),
  };
}
