import { createRoute } from '@hono/zod-openapi';
import { type AdminDeps, RotateApiKeyRequest, rotateApiKey } from '@token-actions/core';
import { requestLogger } from '../../http/request-context.js';
import { unwrap } from '../../http/respond.js';
import { adminError, adminErrors, adminSecurity, idParam, json } from '../openapi.js';
import type { AdminApp, AdminLogger } from '../render.js';
import { issuedJson, RotatedApiKey } from '../schemas.js';

const rotateApiKeyRoute = createRoute({
  method: 'post',
  path: '/v1/admin/api-keys/{id}/rotate',
  operationId: 'rotateApiKey',
  'x-use-case': 'rotateApiKey',
  tags: ['Admin'],
  summary: 'Issue a new key for the same tenant and label; the old one expires after the overlap',
  security: adminSecurity,
  request: { params: idParam, body: { required: false, content: json(RotateApiKeyRequest) } },
  responses: {
    201: { description: 'Rotated', content: json(RotatedApiKey) },
    409: adminError('The key is revoked or expired'),
    ...adminErrors,
  },
});

export function registerRotateApiKey(app: AdminApp, deps: AdminDeps, logger: AdminLogger): void {
  app.openapi(rotateApiKeyRoute, async (c) => {
    const body = c.req.valid('json') ?? {};
    const out = await unwrap(rotateApiKey(deps, { id: c.req.valid('param').id, ...body }));
    requestLogger(c, logger).info(
      { keyId: out.previous.id, newKeyId: out.issued.record.id },
      'API key rotated',
    );
    return c.json(
      {
        ...issuedJson(out.issued),
        previous: {
          id: out.previous.id,
          expiresAt: (out.previous.expiresAt ?? deps.clock.now()).toISOString(),
        },
      },
      201,
    );
  });
}
