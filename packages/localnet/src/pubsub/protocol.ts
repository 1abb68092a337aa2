import { toJson } from '../parsed/json.js';
import type { Sink, SubscriptionHub } from './hub.js';
import { parseSubscription, type RpcErrorBody, SUBSCRIBE_METHODS, UNSUBSCRIBE_METHODS } from './params.js';

/**
 * JSON-RPC 2.0 over one websocket connection, as agave's pubsub (jsonrpc-core) answers it: batches,
 * the standard error codes, and no reply at all to a message without an id (web3.js sends `ping`
 * notifications of that kind to keep the socket alive).
 */

const PARSE_ERROR: RpcErrorBody = { code: -32700, message: 'Parse error' };
const INVALID_REQUEST: RpcErrorBody = { code: -32600, message: 'Invalid request' };
const METHOD_NOT_FOUND: RpcErrorBody = { code: -32601, message: 'Method not found' };
const INVALID_SUBSCRIPTION: RpcErrorBody = { code: -32602, message: 'Invalid subscription id.' };

type Id = string | number | null;

const isId = (value: unknown): value is Id =>
  value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

function reply(id: Id, outcome: { result: unknown } | { error: RpcErrorBody }): string {
  return toJson({ jsonrpc: '2.0', ...outcome, id });
}

function call(
  hub: SubscriptionHub,
  sink: Sink,
  method: string,
  params: unknown,
): { result: unknown } | { error: RpcErrorBody } {
  const kind = SUBSCRIBE_METHODS[method];
  if (kind) {
    const spec = parseSubscription(kind, params);
    return spec.isOk() ? { result: hub.subscribe(sink, spec.value) } : { error: spec.error };
  }
  if (UNSUBSCRIBE_METHODS.has(method)) {
    const id = Array.isArray(params) ? params[0] : undefined;
    if (!Number.isSafeInteger(id) || (id as number) < 0)
      return { error: { code: -32602, message: 'Invalid params: expected a subscription id' } };
    return hub.unsubscribe(sink, id as number) ? { result: true } : { error: INVALID_SUBSCRIPTION };
  }
  return { error: METHOD_NOT_FOUND };
}

function handleOne(hub: SubscriptionHub, sink: Sink, request: unknown): string | undefined {
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    return reply(null, { error: INVALID_REQUEST });
  const { jsonrpc, method, params, id } = request as Record<string, unknown>;
  const hasId = 'id' in request;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || (hasId && !isId(id)))
    return reply(hasId && isId(id) ? id : null, { error: INVALID_REQUEST });
  if (!hasId) return undefined;
  return reply(id as Id, call(hub, sink, method, params));
}

/** Answers one websocket text message; undefined when nothing is to be sent back. */
export function handleMessage(hub: SubscriptionHub, sink: Sink, text: string): string | undefined {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return reply(null, { error: PARSE_ERROR });
  }
  if (!Array.isArray(request)) return handleOne(hub, sink, request);
  if (request.length === 0) return reply(null, { error: INVALID_REQUEST });
  const replies = request.map((item) => handleOne(hub, sink, item)).filter((item) => item !== undefined);
  return replies.length === 0 ? undefined : `[${replies.join(',')}]`;
}
