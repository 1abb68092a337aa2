import { fromBase64 } from '@token-actions/core';
import type { Localnet } from '../../localnet.js';
import { integerParam } from '../encoding.js';
import { invalidParams } from '../errors.js';
import { API_VERSION, type Methods, withContext } from './context.js';

const MAX_ACCOUNT_SPACE = 10 * 1024 * 1024;

/** The cluster, its clock and its blockhashes. */
export function clusterMethods(localnet: Localnet): Methods {
  return {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': API_VERSION, 'feature-set': 0 }),
    getGenesisHash: () => localnet.genesisHash,
    getSlot: () => localnet.slot(),
    getBlockHeight: () => localnet.slot(),
    getEpochInfo: () => localnet.epochInfo(),
    getLatestBlockhash: async () => withContext(localnet, await localnet.latestBlockhash()),
    isBlockhashValid: (params) => {
      if (typeof params[0] !== 'string') throw invalidParams('Invalid params: expected a blockhash');
      return withContext(localnet, localnet.isBlockhashValid(params[0]));
    },
    getFeeForMessage: (params) => {
      if (typeof params[0] !== 'string') throw invalidParams('Invalid params: expected a base64 message');
      const message = fromBase64(params[0]);
      if (!message) throw invalidParams('Invalid params: message is not base64');
      return withContext(localnet, localnet.feeFor(message));
    },
    getMinimumBalanceForRentExemption: (params) =>
      localnet.minimumBalance(Number(integerParam(params[0], 'data length', BigInt(MAX_ACCOUNT_SPACE)))),
  };
}
