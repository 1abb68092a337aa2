import type { ResultAsync } from 'neverthrow';
import { z } from 'zod';
import type { DomainError } from '../../errors.js';
import type { ActionDeps } from './deps.js';
import type { ActionOptions, ActionOutcome } from './pipeline/payment.js';
import { performAction } from './pipeline/perform.js';
import { priorityField, publicKeyField } from './request-fields.js';

export const MintNftRequest = z
  .strictObject({
    name: z.string().meta({ description: 'Name of the NFT (at most 32 bytes)', example: 'Genesis #1' }),
    symbol: z.string().meta({ description: 'Symbol of the NFT (at most 10 bytes)', example: 'GEN' }),
    uri: z.string().meta({
      description: 'URI of the metadata: https:, ipfs: or ar: (at most 200 bytes)',
      example: 'https://example.org/1.json',
    }),
    owner: publicKeyField('Wallet receiving the NFT; the treasury when absent').optional(),
    priority: priorityField.optional(),
  })
  .meta({ id: 'MintNftRequest' });
export type MintNftRequest = z.infer<typeof MintNftRequest>;

/** Mints a Token-2022 NFT with on-chain metadata, signed by the project's mint authority. */
export function mint(
  deps: ActionDeps,
  input: MintNftRequest,
  options: ActionOptions,
): ResultAsync<ActionOutcome, DomainError> {
  return performAction(deps, 'mint', { ...input }, options);
}
