import { createRoute } from '@hono/zod-openapi';
import { AccountCreateRequest, type ActionDeps, createAccount } from '@token-actions/core';
import { unwrap } from '../../http/respond.js';
import { bodylessWriteErrors, IdempotencyHeaders, ok, security } from '../openapi.js';
import type { PaymentsApp } from '../render.js';
import { AccountCreateResponse } from '../schemas.js';

const createAccountRoute = createRoute({
  method: 'post',
  path: '/v1/api/accounts',
  operationId: 'createAccount',
  'x-use-case': 'createAccount',
  tags: ['Account'],
  summary: 'Create a managed (custodial) account',
  security,
  request: {
    headers: IdempotencyHeaders,
    // The body is optional (a label at most), so the request may come without one, in any
    // Content-Type: it is read only when it is JSON.
    body: { required: false, content: { 'application/json': { schema: AccountCreateRequest } } },
  },
  responses: { ...ok('Created', AccountCreateResponse), ...bodylessWriteErrors },
});

export function registerCreateAccount(app: PaymentsApp, deps: ActionDeps): void {
  app.openapi(createAccountRoute, async (c) => {
    const body = c.req.valid('json') ?? {};
    const out = await unwrap(
      createAccount(deps, body.label ? { label: body.label } : {}, c.get('tenant').id),
    );
    return c.json({ publicKey: out.publicKey as string }, 200);
  });
}
