import { createRoute, z } from '@hono/zod-openapi';
import {
  type AdminDeps,
  createApiKey,
  getApiKey,
  type IssuedApiKey as Issued,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
} from '@token-actions/core';
import { requestLogger } from '../http/request-context.js';
import { unwrap } from '../http/respond.js';
import type { AdminApp, AdminLogger } from './render.js';
import {
  AdminError,
  ApiKey,
  ApiKeyList,
  apiKeyJson,
  CreateApiKeyRequest,
  IssuedApiKey,
  RotateApiKeyRequest,
  RotatedApiKey,
} from './schemas.js';

export const adminSecurity = [{ adminToken: [] }];

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: AdminError } },
});
export const adminErrors = {
  400: error('Invalid input; the message names the problem'),
  401: error('Missing or invalid admin token'),
  404: error('Not found, or the admin API is off (no ADMIN_TOKEN)'),
} as const;

const idParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

function issuedJson({ record, apiKey }: Issued) {
  return {
    id: record.id,
    apiKey,
    label: record.label,
    tenant: record.tenant,
    prefix: record.prefix ?? '',
    createdAt: record.createdAt.toISOString(),
  };
}

/** Interface A keys: issued once, listed without their secret, revoked, rotated with an overlap. */
export function registerApiKeyRoutes(app: AdminApp, deps: AdminDeps, logger: AdminLogger) {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/admin/api-keys',
      operationId: 'createApiKey',
      tags: ['Admin'],
      summary: 'Issue an API key for a tenant (the secret is shown once)',
      security: adminSecurity,
      request: { body: { required: true, content: json(CreateApiKeyRequest) } },
      responses: { 201: { description: 'Issued', content: json(IssuedApiKey) }, ...adminErrors },
    }),
    async (c) => {
      const issued = await unwrap(createApiKey(deps, c.req.valid('json')));
      requestLogger(c, logger).info(
        { keyId: issued.record.id, tenant: issued.record.tenant },
        'API key issued',
      );
      return c.json(issuedJson(issued), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/admin/api-keys',
      operationId: 'listApiKeys',
      tags: ['Admin'],
      summary: 'List API keys (never their secret or hash), oldest first',
      security: adminSecurity,
      request: {
        query: z.object({
          tenant: z
            .string()
            .optional()
            .openapi({ param: { name: 'tenant', in: 'query' } }),
        }),
      },
      responses: { 200: { description: 'Keys', content: json(ApiKeyList) }, ...adminErrors },
    }),
    async (c) => {
      const { tenant } = c.req.valid('query');
      const keys = await unwrap(listApiKeys(deps, tenant === undefined ? {} : { tenant }));
      const now = deps.clock.now();
      return c.json({ apiKeys: keys.map((k) => apiKeyJson(k, now)) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/admin/api-keys/{id}',
      operationId: 'getApiKey',
      tags: ['Admin'],
      summary: 'One API key (never its secret or hash)',
      security: adminSecurity,
      request: { params: idParam },
      responses: { 200: { description: 'Key', content: json(ApiKey) }, ...adminErrors },
    }),
    async (c) => {
      const key = await unwrap(getApiKey(deps, { id: c.req.valid('param').id }));
      return c.json(apiKeyJson(key, deps.clock.now()), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/admin/api-keys/{id}',
      operationId: 'revokeApiKey',
      tags: ['Admin'],
      summary: 'Revoke an API key: refused at once by every server process',
      security: adminSecurity,
      request: { params: idParam },
      responses: { 200: { description: 'Revoked', content: json(ApiKey) }, ...adminErrors },
    }),
    async (c) => {
      const revoked = await unwrap(revokeApiKey(deps, { id: c.req.valid('param').id }));
      requestLogger(c, logger).info({ keyId: revoked.id, tenant: revoked.tenant }, 'API key revoked');
      return c.json(apiKeyJson(revoked, deps.clock.now()), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/admin/api-keys/{id}/rotate',
      operationId: 'rotateApiKey',
      tags: ['Admin'],
      summary: 'Issue a new key for the same tenant and label; the old one expires after the overlap',
      security: adminSecurity,
      request: { params: idParam, body: { required: false, content: json(RotateApiKeyRequest) } },
      responses: {
        201: { description: 'Rotated', content: json(RotatedApiKey) },
        409: error('The key is revoked or expired'),
        ...adminErrors,
      },
    }),
    async (c) => {
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
    },
  );
}
