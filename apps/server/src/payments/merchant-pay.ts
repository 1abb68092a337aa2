import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, MerchantPaymentRequest, merchantPay } from '@token-actions/core';
import { actionOptions, unwrap } from '../http/respond.js';
import { forbidden, IdempotencyHeaders, jsonBody, ok, security, writeErrors } from './openapi.js';
import type { PaymentsApp } from './render.js';
import { PaymentResponse, submittedJson } from './schemas.js';

const merchantPayRoute = createRoute({
  method: 'post',
  path: '/v1/api/merchant/payment',
  operationId: 'payMerchant',
  'x-use-case': 'merchantPay',
  tags: ['Merchant'],
  summary: 'Pay a merchant, optionally through escrow',
  security,
  request: { headers: IdempotencyHeaders, body: jsonBody(MerchantPaymentRequest) },
  responses: { ...ok('Submitted', PaymentResponse), ...writeErrors, ...forbidden },
});

export function registerMerchantPay(app: PaymentsApp, deps: ActionDeps): void {
  app.openapi(merchantPayRoute, async (c) => {
    const out = await unwrap(merchantPay(deps, c.req.valid('json'), actionOptions(c)));
    return c.json(submittedJson(out), 200);
  });
}
