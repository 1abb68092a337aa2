import { serveAction } from './action-route.js';
import type { BlinksApp, BlinksContext } from './app.js';

/**
 * GET and POST /v1/actions/donate/sol, /v1/actions/donate/usdc and /v1/actions/donate/proj: a
 * donation to the project treasury, one action per currency.
 */
export function registerDonateActions(app: BlinksApp, blinks: BlinksContext): void {
  serveAction(app, blinks, {
    path: '/v1/actions/donate/sol',
    metadataOperationId: 'getActionDonateSol',
    transactionOperationId: 'postActionDonateSol',
  });
  serveAction(app, blinks, {
    path: '/v1/actions/donate/usdc',
    metadataOperationId: 'getActionDonateUsdc',
    transactionOperationId: 'postActionDonateUsdc',
  });
  // /v1/actions/donate/proj by default: the project token's ticker is configuration
  // (PROJECT_TICKER), so its path and operationIds are the only ones built from a value.
  const ticker = blinks.deps.currencies.project.code.toLowerCase();
  const capitalised = `${ticker.charAt(0).toUpperCase()}${ticker.slice(1)}`;
  serveAction(app, blinks, {
    path: `/v1/actions/donate/${ticker}`,
    metadataOperationId: `getActionDonate${capitalised}`,
    transactionOperationId: `postActionDonate${capitalised}`,
  });
}
