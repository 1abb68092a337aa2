import { z } from '@hono/zod-openapi';
import { AdminError } from './schemas.js';

/** The OpenAPI pieces every admin route declares: the operator's token and the error answers. */

/** The operator token (`Authorization: Bearer <ADMIN_TOKEN>`). */
export const adminSecurity = [{ adminToken: [] }];

/** An admin error answer, `{code, message}`. */
export const adminError = (description: string) => ({
  description,
  content: { 'application/json': { schema: AdminError } },
});

/** What every admin operation can answer besides its own errors. */
export const adminErrors = {
  400: adminError('Invalid input; the message names the problem'),
  401: adminError('Missing or invalid admin token'),
  404: adminError('Not found, or the admin API is off (no ADMIN_TOKEN)'),
} as const;

/** The id a path names. */
export const idParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });

/** A JSON body or answer of `schema`. */
export const json = <T>(schema: T) => ({ 'application/json': { schema } });

/** The tenant an operator's webhook endpoint request is about. */
export const tenantQuery = z.object({
  tenant: z.string().openapi({
    param: { name: 'tenant', in: 'query' },
    description: 'The tenant whose endpoints these are',
    example: 'acme',
  }),
});
