/**
 * docs/routes.md is the table of every route the server serves, generated from the app by
 * `pnpm --filter @token-actions/server routes`. This fails when the app and the file disagree: a
 * route served and not in the table, a row the app does not serve, a changed operationId,
 * use-case or credential.
 */
import { readFile } from 'node:fs/promises';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { currentRouteTable, ROUTES_FILE } from '../../scripts/route-table.js';
import { routeTable } from '../../src/docs/route-table.js';

describe('the route table (docs/routes.md)', () => {
  it('is what the app serves: every route, nothing else, each with its declaration', async () => {
    const { markdown, problems } = await currentRouteTable();
    expect(problems).toEqual([]);
    const written = await readFile(ROUTES_FILE, 'utf8');
    expect(written, 'docs/routes.md is stale: run pnpm --filter @token-actions/server routes').toBe(markdown);
  });

  it('names a route served without a declaration, and a declaration nothing serves', () => {
    const app = new OpenAPIHono();
    const declared = createRoute({
      method: 'get',
      path: '/declared/{id}',
      operationId: 'getDeclared',
      'x-use-case': 'getDeclared',
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: { description: 'ok' } },
    });
    app.openapi(declared, (c) => c.body(null, 200));
    app.get('/plain', (c) => c.text('no declaration'));
    app.openAPIRegistry.registerPath({
      method: 'post',
      path: '/nowhere',
      operationId: 'postNowhere',
      responses: { 200: { description: 'ok' } },
    });
    const document = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    const { rows, problems } = routeTable(app, document, []);
    expect(rows.map((row) => `${row.method} ${row.path} ${row.operationId}`)).toEqual([
      'GET /declared/{id} getDeclared',
    ]);
    expect(problems.sort()).toEqual([
      'GET /plain is served but not declared',
      'POST /nowhere is declared but not served',
    ]);
  });
});
