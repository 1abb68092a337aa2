import { createRoute } from '@hono/zod-openapi';
import { type ActionDeps, AirdropRequest, airdrop } from '@token-actions/core';
import { DomainHttpError } from '../../http/errors.js';
import { unwrap } from '../../http/respond.js';
import {
  accountParam,
  IdempotencyHeaders,
  jsonBody,
  notFound,
  ok,
  security,
  writeErrors,
} from '../openapi.js';
import type { PaymentsApp } from '../render.js';
import { AirdropResponse } from '../schemas.js';

const airdropRoute = createRoute({
  method: 'post',
  path: '/v1/api/accounts/{publicKey}/airdrop',
  operationId: 'airdrop',
  'x-use-case': 'airdrop',
  tags: ['Account'],
  summary: 'Localnet only: credit an account with SOL, USDC or the project token',
  security,
  request: { params: accountParam, headers: IdempotencyHeaders, body: jsonBody(AirdropRequest) },
  responses: { ...ok('Credited', AirdropResponse), ...writeErrors, ...notFound },
});

export function registerAirdrop(app: PaymentsApp, deps: ActionDeps, isLocalnet: boolean): void {
  app.openapi(airdropRoute, async (c) => {
    if (!isLocalnet) {
      throw new DomainHttpError({ code: 'NOT_SUPPORTED', message: 'airdrops exist only on the localnet' });
    }
    const out = await unwrap(
      airdrop(deps, {
        publicKey: c.req.valid('param').publicKey,
        tenant: c.get('tenant').id,
        ...c.req.valid('json'),
      }),
    );
    return c.json({ message: out.message, transactionId: out.transactionId as string }, 200);
  });
}
