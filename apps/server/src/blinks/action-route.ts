import type { ActionGetResponse, ActionPostResponse } from '@solana/actions';
import {
  type ActionDescriptor,
  actionMetadata,
  prepareForWallet,
  presetValues,
  readActionRequest,
  toBase64,
} from '@token-actions/core';
import type { Context } from 'hono';
import { unwrap } from '../http/respond.js';
import { ACTIONS_PREFIX, type BlinksApp, type BlinksContext, readJson } from './app.js';
import {
  ActionError,
  ActionMetadata,
  ActionPostRequest,
  ActionTransaction,
  actionQuery,
  answer,
  POST_ERRORS,
  tags,
} from './openapi.js';

/** One action's two operations: its metadata (GET) and a transaction for a wallet (POST). */
export interface ActionRoute {
  /** The action's path, as core's catalog names it under `/v1/actions`. */
  readonly path: string;
  readonly metadataOperationId: string;
  readonly transactionOperationId: string;
}

/** The catalog's action at `path`; a path the catalog does not know is a bug, found at start-up. */
function descriptorAt(blinks: BlinksContext, path: string): ActionDescriptor {
  const descriptor = blinks.catalog.find((d) => `${ACTIONS_PREFIX}/${d.path}` === path);
  if (!descriptor) throw new Error(`no action at ${path} in the catalog`);
  return descriptor;
}

/**
 * Serves and declares one action: GET answers its metadata (the spec's "GET Response", with the
 * query's values fixed), POST `{account}` a transaction for that wallet to sign.
 */
export function serveAction(app: BlinksApp, blinks: BlinksContext, route: ActionRoute): void {
  const descriptor = descriptorAt(blinks, route.path);
  const { deps, options } = blinks;

  app.get(route.path, (c) => c.json(metadataOf(c, descriptor, route.path, options.baseUrl)));
  app.post(route.path, blinks.limitPost, blinks.rateLimitPost, async (c) => {
    const body = await readJson(c);
    const request = await unwrap(readActionRequest(descriptor, c.req.query(), body));
    const prepared = await unwrap(prepareForWallet(deps, descriptor.type, request.fields, request.account));
    const answer = {
      type: 'transaction',
      transaction: toBase64(prepared.transaction),
      message: prepared.message,
    } satisfies ActionPostResponse;
    return c.json(answer);
  });

  const query = actionQuery(descriptor);
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: route.path,
    operationId: route.metadataOperationId,
    'x-use-case': 'actionMetadata',
    tags,
    security: [],
    summary: `${descriptor.title}: the action's metadata`,
    description: `${descriptor.description} Parameters given in the query string are fixed and left out of the form.`,
    request: { query },
    responses: {
      200: answer('Metadata', ActionMetadata),
      503: answer('The chain is unavailable', ActionError),
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: route.path,
    operationId: route.transactionOperationId,
    'x-use-case': 'prepareForWallet',
    tags,
    security: [],
    summary: `${descriptor.title}: a transaction for the wallet to sign`,
    request: {
      query,
      body: { required: true, content: { 'application/json': { schema: ActionPostRequest } } },
    },
    responses: { 200: answer('The transaction', ActionTransaction), ...POST_ERRORS },
  });
}

function metadataOf(c: Context, descriptor: ActionDescriptor, path: string, baseUrl: string | undefined) {
  const origin = baseUrl ?? new URL(c.req.url).origin;
  return actionMetadata(descriptor, {
    path,
    iconUrl: `${origin}${ACTIONS_PREFIX}/icon.svg`,
    fixed: presetValues(descriptor, c.req.query()),
  }) satisfies ActionGetResponse;
}
