import type { ActionDeps } from './deps.js';
import { type ActionOptions, performAction } from './perform.js';

export interface MintInput {
  readonly name: unknown;
  readonly symbol: unknown;
  readonly uri: unknown;
  readonly owner?: unknown;
  readonly priority?: unknown;
}

/** Mints a Token-2022 NFT with on-chain metadata, signed by the project's mint authority. */
export function mint(deps: ActionDeps, input: MintInput, options: ActionOptions = {}) {
  return performAction(deps, 'mint', { ...input }, options);
}
