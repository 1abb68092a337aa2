import type { ChainPort } from '@token-actions/core';
import { createLocalnet, type Localnet, type LocalnetConfig } from '@token-actions/localnet';
import { createInProcessChain } from '../../src/chain/index.js';

/** The in-process adapter and the localnet under it, as one object for tests: the port's methods,
 * plus the localnet's own (tick, fund, slot, close, ...). */
export type LocalnetChain = ChainPort & Omit<Localnet, 'airdrop'>;

export async function openLocalnetChain(config: LocalnetConfig = {}): Promise<LocalnetChain> {
  const localnet = await createLocalnet(config);
  const port = createInProcessChain(localnet);
  return new Proxy(port, {
    get: (target, key) =>
      key in target ? Reflect.get(target, key) : Reflect.get(localnet, key as keyof Localnet),
  }) as LocalnetChain;
}
