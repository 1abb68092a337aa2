import { INTERNAL_ERROR, INVALID_REQUEST, invalidParams, METHOD_NOT_FOUND, RpcError } from './errors.js';
import type { Methods } from './methods/index.js';

/** The JSON-RPC 2.0 envelope: request objects in, response objects out, batches in order. */

const MAX_BATCH = 1_000;

interface JsonRpcRequest {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
}

export function errorResponse(id: unknown, error: RpcError) {
  return {
    jsonrpc: '2.0',
    error: {
      code: error.code,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
    },
    id: id ?? null,
  };
}

function paramsOf(request: JsonRpcRequest): unknown[] {
  if (request.params === undefined) return [];
  if (!Array.isArray(request.params)) throw invalidParams('Invalid params: expected an array');
  return request.params;
}

/** Answers one request object; undefined for a notification (no id). */
async function answer(methods: Methods, request: unknown): Promise<unknown> {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return errorResponse(null, new RpcError(INVALID_REQUEST, 'Invalid request'));
  }
  const { id, method, jsonrpc } = request as JsonRpcRequest;
  const validId = id === undefined || id === null || typeof id === 'string' || typeof id === 'number';
  if (jsonrpc !== '2.0' || typeof method !== 'string' || !validId) {
    return errorResponse(validId ? id : null, new RpcError(INVALID_REQUEST, 'Invalid request'));
  }
  const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
  let response: unknown;
  if (!handler) {
    response = errorResponse(id, new RpcError(METHOD_NOT_FOUND, 'Method not found'));
  } else {
    try {
      const result = await handler(paramsOf(request as JsonRpcRequest));
      response = { jsonrpc: '2.0', result: result ?? null, id: id ?? null };
    } catch (error) {
      response = errorResponse(
        id,
        error instanceof RpcError ? error : new RpcError(INTERNAL_ERROR, 'Internal error'),
      );
    }
  }
  return id === undefined ? undefined : response;
}

/** Handles a parsed JSON-RPC body: one request or a batch. Undefined when nothing is to be sent back. */
export async function handleJsonRpc(methods: Methods, body: unknown): Promise<unknown> {
  if (!Array.isArray(body)) return answer(methods, body);
  if (body.length === 0) return errorResponse(null, new RpcError(INVALID_REQUEST, 'Invalid request'));
  if (body.length > MAX_BATCH)
    return errorResponse(null, new RpcError(INVALID_REQUEST, `Batch larger than ${MAX_BATCH}`));
  const responses: unknown[] = [];
  // In order: a batch may send a transaction and then ask for its status.
  for (const request of body) {
    const response = await answer(methods, request);
    if (response !== undefined) responses.push(response);
  }
  return responses.length > 0 ? responses : undefined;
}
