import { z } from '@hono/zod-openapi';
import type { BlinksApp } from './app.js';
import { ACTION_HEADERS, ActionError, answer, tags } from './openapi.js';

/**
 * The actions' icon, served by the service itself so a blink renders without any other host
 * (the spec requires an absolute URL to an SVG, PNG or WebP image). A coin on a square field.
 */
export const ACTION_ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256" width="256" height="256">
<rect width="256" height="256" rx="32" fill="#14151a"/>
<circle cx="128" cy="128" r="84" fill="#9945ff"/>
<circle cx="128" cy="128" r="62" fill="none" stroke="#14f195" stroke-width="10"/>
<path d="M96 104h64M96 128h64M96 152h64" stroke="#ffffff" stroke-width="12" stroke-linecap="round"/>
</svg>
`;

/** GET /v1/actions/icon.svg: the icon every action's metadata points at. */
export function registerIcon(app: BlinksApp): void {
  app.get('/v1/actions/icon.svg', (c) =>
    c.body(ACTION_ICON_SVG, 200, {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
    }),
  );
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/v1/actions/icon.svg',
    operationId: 'getActionIcon',
    'x-use-case': 'the action icon',
    tags,
    security: [],
    summary: 'The icon the actions show',
    responses: {
      200: {
        description: 'SVG',
        headers: ACTION_HEADERS,
        content: { 'image/svg+xml': { schema: z.string() } },
      },
      503: answer('The chain is unavailable', ActionError),
    },
  });
}
