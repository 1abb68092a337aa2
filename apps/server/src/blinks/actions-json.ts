import type { ActionsJson as ActionsJsonBody } from '@solana/actions';
import { actionsJson } from '@token-actions/core';
import { ACTIONS_PREFIX, type BlinksApp, type BlinksContext } from './app.js';
import { ActionError, ActionsJson, answer, tags } from './openapi.js';

/** GET /actions.json and GET /.well-known/actions.json: which paths of this origin are actions. */
export function registerActionsJson(app: BlinksApp, blinks: BlinksContext): void {
  const rules = actionsJson(blinks.catalog, ACTIONS_PREFIX) satisfies ActionsJsonBody;
  app.get('/actions.json', (c) => c.json(rules));
  app.get('/.well-known/actions.json', (c) => c.json(rules));

  for (const [path, operationId] of [
    ['/actions.json', 'getActionsJson'],
    ['/.well-known/actions.json', 'getWellKnownActionsJson'],
  ] as const) {
    app.openAPIRegistry.registerPath({
      method: 'get',
      path,
      operationId,
      'x-use-case': 'actionsJson',
      tags,
      security: [],
      summary: 'The actions.json rules: which paths of this origin are actions',
      responses: { 200: answer('Rules', ActionsJson), 503: answer('The chain is unavailable', ActionError) },
    });
  }
}
