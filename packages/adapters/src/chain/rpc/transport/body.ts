/*
 * The little the transport reads of JSON-RPC 2.0 bodies (https://www.jsonrpc.org/specification):
 * the methods of a request, single or batched, to choose its policy and count it; and the error
 * objects of an answer, to tell a node that is behind from an answer to pass on.
 */

export interface RpcCall {
  readonly method: string;
  readonly id: unknown;
}

export interface RpcRequest {
  /** The body as it goes on the wire, untouched. */
  readonly text: string;
  /** One per call; a body the transport cannot read is one call named `unknown`. */
  readonly calls: readonly RpcCall[];
  readonly batch: boolean;
  /** The request's name in errors: its method, `+N` for the other calls of a batch. */
  readonly name: string;
}

export interface RpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

const UNKNOWN: RpcCall = { method: 'unknown', id: undefined };

function callOf(entry: unknown): RpcCall {
  if (typeof entry !== 'object' || entry === null) return UNKNOWN;
  const { method, id } = entry as { method?: unknown; id?: unknown };
  return typeof method === 'string' ? { method, id } : { method: 'unknown', id };
}

export function readRequest(text: string): RpcRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const batch = Array.isArray(parsed);
  const entries: unknown[] = batch ? (parsed as unknown[]) : [parsed];
  const calls = entries.length === 0 ? [UNKNOWN] : entries.map(callOf);
  const name = calls.length === 1 ? calls[0]!.method : `${calls[0]!.method}+${calls.length - 1}`;
  return { text, calls, batch, name };
}

function errorOf(entry: unknown): RpcErrorObject | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const error = (entry as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  return {
    code: typeof code === 'number' ? code : -32603,
    message: typeof message === 'string' ? message : 'JSON-RPC error',
    ...(data === undefined ? {} : { data }),
  };
}

/**
 * The error object of each call in `answer` (undefined where the call has a result, or where the
 * answer is not JSON: whoever reads the answer reports that). Batch answers may come in any order
 * (JSON-RPC 2.0 section 6): they are matched to the calls by id.
 */
export function answerErrors(answer: string, request: RpcRequest): (RpcErrorObject | undefined)[] {
  const none = request.calls.map(() => undefined);
  // The common answer holds no error at all: skip parsing what may be a large body.
  if (!answer.includes('"error"')) return none;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return none;
  }
  if (!Array.isArray(parsed)) return request.calls.map(() => errorOf(parsed));
  const byId = new Map<unknown, unknown>();
  for (const entry of parsed) {
    if (typeof entry === 'object' && entry !== null) byId.set((entry as { id?: unknown }).id, entry);
  }
  return request.calls.map((call, index) => errorOf(byId.get(call.id) ?? parsed[index]));
}
