import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, CharityDonationRequest, charityDonate } from '@token-actions/core';
import { actionOptions, unwrap } from '../http/respond.js';
import { forbidden, IdempotencyHeaders, jsonBody, ok, security, writeErrors } from './openapi.js';
import type { PaymentsApp } from './render.js';
import { DonationResponse, submittedJson } from './schemas.js';

const charityDonateRoute = createRoute({
  method: 'post',
  path: '/v1/api/charity/donate',
  operationId: 'donateToCharity',
  'x-use-case': 'charityDonate',
  tags: ['Charity'],
  summary: 'Donate to a charity, optionally through escrow',
  security,
  request: { headers: IdempotencyHeaders, body: jsonBody(CharityDonationRequest) },
  responses: { ...ok('Submitted', DonationResponse), ...writeErrors, ...forbidden },
});

export function registerCharityDonate(app: PaymentsApp, deps: ActionDeps): void {
  app.openapi(charityDonateRoute, async (c) => {
    const out = await unwrap(charityDonate(deps, c.req.valid('json'), actionOptions(c)));
    return c.json(submittedJson(out), 200);
  });
}
