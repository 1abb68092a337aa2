import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, getBalances } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import { accountParam, notFound, ok, readErrors, security } from '../openapi.js';
import type { PaymentsApp } from '../render.js';
import { AccountResponse } from '../schemas.js';

const getAccountRoute = createRoute({
  method: 'get',
  path: '/v1/api/accounts/{publicKey}',
  operationId: 'getAccount',
  'x-use-case': 'getBalances',
  tags: ['Account'],
  summary: 'Balances of an account in every supported currency',
  security,
  request: { params: accountParam },
  responses: { ...ok('Balances', AccountResponse), ...readErrors, ...notFound },
});

export function registerGetAccount(app: PaymentsApp, deps: ActionDeps): void {
  app.openapi(getAccountRoute, async (c) => {
    const out = await unwrap(
      getBalances(deps, { publicKey: c.req.valid('param').publicKey, tenant: c.get('tenant').id }),
    );
    return c.json(out, 200);
  });
}
