import { authorizationServerMetadata } from '@token-actions/core';
import type { OAuthApp, OAuthRouteContext } from './app.js';
import { tags } from './openapi.js';
import { Metadata } from './openapi-schemas.js';

/** GET /.well-known/oauth-authorization-server: the server's endpoints and abilities (RFC 8414). */
export function registerMetadata(app: OAuthApp, { settings, adminTokenHash }: OAuthRouteContext): void {
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/.well-known/oauth-authorization-server',
    operationId: 'getAuthorizationServerMetadata',
    'x-use-case': 'authorizationServerMetadata',
    tags,
    security: [],
    summary: 'Authorization server metadata (RFC 8414)',
    responses: { 200: { description: 'Metadata', content: { 'application/json': { schema: Metadata } } } },
  });
  app.get('/.well-known/oauth-authorization-server', (c) =>
    c.json(authorizationServerMetadata(settings, { registration: adminTokenHash !== undefined }), 200, {
      'Cache-Control': 'public, max-age=300',
    }),
  );
}
