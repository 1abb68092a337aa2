import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, MintNftRequest, mint } from '@token-actions/core';
import { actionOptions, unwrap } from '../http/respond.js';
import { IdempotencyHeaders, jsonBody, ok, security, writeErrors } from './openapi.js';
import type { PaymentsApp } from './render.js';
import { MintNftResponse } from './schemas.js';

const mintRoute = createRoute({
  method: 'post',
  path: '/v1/api/mint',
  operationId: 'mintNft',
  'x-use-case': 'mint',
  tags: ['NFT'],
  summary: 'Mint a new NFT (Token-2022 with on-chain metadata)',
  security,
  request: { headers: IdempotencyHeaders, body: jsonBody(MintNftRequest) },
  responses: { ...ok('Minted', MintNftResponse), ...writeErrors },
});

export function registerMint(app: PaymentsApp, deps: ActionDeps): void {
  app.openapi(mintRoute, async (c) => {
    const out = await unwrap(mint(deps, c.req.valid('json'), actionOptions(c)));
    return c.json({ message: out.message, transactionId: out.transactionId, mint: out.mint ?? '' }, 200);
  });
}
