import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, getNft } from '@token-actions/core';
import { KEY_EXAMPLE } from '../docs/components.js';
import { unwrap } from '../http/respond.js';
import { notFound, ok, pathParam, readErrors, security } from './openapi.js';
import type { PaymentsApp } from './render.js';
import { NftResponse } from './schemas.js';

const getNftRoute = createRoute({
  method: 'get',
  path: '/v1/api/nfts/{mint}',
  operationId: 'getNft',
  'x-use-case': 'getNft',
  tags: ['NFT'],
  summary: 'Read an NFT mint and its metadata back from the chain',
  security,
  request: { params: pathParam('mint', 'The NFT mint (base58, 32 bytes)', KEY_EXAMPLE) },
  responses: { ...ok('NFT', NftResponse), ...readErrors, ...notFound },
});

export function registerGetNft(app: PaymentsApp, deps: ActionDeps): void {
  app.openapi(getNftRoute, async (c) => {
    const nft = await unwrap(getNft(deps, { mint: c.req.valid('param').mint, tenant: c.get('tenant').id }));
    return c.json(
      {
        mint: nft.mint,
        name: nft.name,
        symbol: nft.symbol,
        uri: nft.uri,
        supply: nft.supply.toString(),
        decimals: nft.decimals,
        mintAuthority: nft.mintAuthority ?? null,
        updateAuthority: nft.updateAuthority ?? null,
        owner: nft.owner ?? null,
      },
      200,
    );
  });
}
