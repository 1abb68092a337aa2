import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, type Currency, DonateRequest, donate } from '@token-actions/core';
import { actionOptions, unwrap } from '../http/respond.js';
import { IdempotencyHeaders, jsonBody, ok, security, writeErrors } from './openapi.js';
import { errorA, type PaymentsApp } from './render.js';
import { DonationResponse } from './schemas.js';

/**
 * POST /v1/api/donate/sol, /v1/api/donate/usdc and /v1/api/donate/proj: a donation to the project
 * treasury, one route per currency as the spec names them, each through core's `donate`. Then the
 * refusal of any other currency in that place.
 */
export function registerDonations(app: PaymentsApp, deps: ActionDeps): void {
  const { native, stable, project } = deps.currencies;
  serveDonation(app, deps, '/v1/api/donate/sol', 'donateSol', native);
  serveDonation(app, deps, '/v1/api/donate/usdc', 'donateUsdc', stable);
  // POST /v1/api/donate/proj by default: the project token's ticker is configuration
  // (PROJECT_TICKER), so its path and operationId are the only ones built from a value.
  const ticker = project.code.toLowerCase();
  const capitalised = `${ticker.charAt(0).toUpperCase()}${ticker.slice(1)}`;
  serveDonation(app, deps, `/v1/api/donate/${ticker}`, `donate${capitalised}`, project);

  // A donation to a currency the service does not support is bad input, not a missing page. A
  // wildcard after the currencies' own routes, not a `:currency` route: a parameter beside static
  // paths of the same method is what Hono's RegExpRouter cannot compile, and the fallback router
  // (the trie) costs every request of every route a slower match and more garbage.
  app.post('/v1/api/donate/*', (c, next) => {
    const currency = /^\/v1\/api\/donate\/([^/]+)$/.exec(c.req.path)?.[1];
    if (currency === undefined) return next();
    const known = deps.currencies.codes().map((code) => code.toLowerCase());
    return errorA(
      c,
      400,
      'UNKNOWN_CURRENCY',
      `unknown currency "${currency.slice(0, 32)}" in the path; use one of ${known.join(', ')}`,
    );
  });
}

/** One currency's donation route: the same body and answer for every currency. */
function serveDonation<P extends string>(
  app: PaymentsApp,
  deps: ActionDeps,
  path: P,
  operationId: string,
  currency: Currency,
): void {
  const route = createRoute({
    method: 'post',
    path,
    operationId,
    'x-use-case': 'donate',
    tags: ['Donation'],
    summary: `Donate ${currency.code} to the project treasury`,
    security,
    request: { headers: IdempotencyHeaders, body: jsonBody(DonateRequest) },
    responses: { ...ok('Donation submitted', DonationResponse), ...writeErrors },
  });
  app.openapi(route, async (c) => {
    const input = { ...c.req.valid('json'), currency: currency.code };
    const out = await unwrap(donate(deps, input, actionOptions(c)));
    return c.json({ message: out.message, transactionId: out.transactionId }, 200);
  });
}
