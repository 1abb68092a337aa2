import { serveAction } from './action-route.js';
import type { BlinksApp, BlinksContext } from './app.js';

/** GET and POST /v1/actions/charity: a donation to a charity, directly or held in escrow. */
export function registerCharityAction(app: BlinksApp, blinks: BlinksContext): void {
  serveAction(app, blinks, {
    path: '/v1/actions/charity',
    metadataOperationId: 'getActionCharity',
    transactionOperationId: 'postActionCharity',
  });
}
