import { serveAction } from './action-route.js';
import type { BlinksApp, BlinksContext } from './app.js';

/** GET and POST /v1/actions/mint: an NFT minted to the wallet that signs. */
export function registerMintAction(app: BlinksApp, blinks: BlinksContext): void {
  serveAction(app, blinks, {
    path: '/v1/actions/mint',
    metadataOperationId: 'getActionMint',
    transactionOperationId: 'postActionMint',
  });
}
