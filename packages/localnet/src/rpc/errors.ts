/** JSON-RPC 2.0 error codes, and Solana's own in the server-error range. */
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const PARSE_ERROR = -32700;
export const PREFLIGHT_FAILURE = -32002;
export const SIGNATURE_FAILURE = -32003;
export const UNSUPPORTED_VERSION = -32015;

/** A method's refusal, answered as the response's `error`. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const invalidParams = (message: string) => new RpcError(INVALID_PARAMS, message);
