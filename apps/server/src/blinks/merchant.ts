import { serveAction } from './action-route.js';
import type { BlinksApp, BlinksContext } from './app.js';

/** GET and POST /v1/actions/merchant: a payment to a merchant, directly or held in escrow. */
export function registerMerchantAction(app: BlinksApp, blinks: BlinksContext): void {
  serveAction(app, blinks, {
    path: '/v1/actions/merchant',
    metadataOperationId: 'getActionMerchant',
    transactionOperationId: 'postActionMerchant',
  });
}
