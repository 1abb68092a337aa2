/** A bare JSON-RPC 2.0 call, for what `Connection` cannot express: custom localnet methods, and
 * lamport balances read without passing through a double. */

export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

let nextId = 1;

export async function callJsonRpc(
  fetchFn: typeof fetch,
  url: string,
  method: string,
  params: readonly unknown[],
  /** Rewrites the response text before parsing (to keep u64 values exact). */
  prepareText: (text: string) => string = (text) => text,
): Promise<unknown> {
  const response = await fetchFn(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method}: HTTP ${response.status}`);
  const body = JSON.parse(prepareText(text)) as {
    result?: unknown;
    error?: { code?: unknown; message?: unknown; data?: unknown };
  };
  if (body.error) {
    throw new JsonRpcError(
      typeof body.error.code === 'number' ? body.error.code : -32603,
      typeof body.error.message === 'string' ? body.error.message : 'JSON-RPC error',
      body.error.data,
    );
  }
  return body.result;
}

/** `{"value":123…}` -> `{"value":"123…"}`: the one integer a getBalance answer carries at the top level. */
export function quoteValue(text: string): string {
  return text.replace(/"value":(\d+)/, '"value":"$1"');
}
