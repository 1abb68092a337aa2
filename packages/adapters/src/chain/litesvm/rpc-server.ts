import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getBase58Encoder } from '@solana/kit';
import {
  type Currency,
  type DomainError,
  encodeBase58,
  formatAmount,
  fromBase64,
  isPublicKey,
  isSignature,
  type PublicKey,
  type Signature,
  toBase64,
} from '@token-actions/core';
import type { ResultAsync } from 'neverthrow';
import { type TransactionErrorJson, transactionErrorText } from '../shared/failure.js';
import { tokenAccountAmount } from '../shared/intents.js';
import type { ParsedMessage } from '../shared/message.js';
import type { LocalAccount, LocalnetChain, Simulation, WireRejection } from './index.js';

/**
 * Solana's JSON-RPC 2.0 over HTTP for the localnet: the subset that `@solana/web3.js`, wallets
 * and the `rpc` chain adapter use, with the real response shapes and error codes.
 *
 * Custom methods (prefixed `localnet_`, unknown to real clusters):
 * - `localnet_getMints` -> `{ mintAuthority, genesisHash, currencies: [{code, kind, decimals, mint?, tokenProgram?}] }`
 * - `localnet_mintTo [owner, mint, amount]` -> signature: mints the localnet's own stablecoin or
 *   project token (the token counterpart of `requestAirdrop`; amount in base units, string or number).
 */

export interface LocalnetRpcOptions {
  /** Default 8899; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Largest request body accepted; default 1 MiB. */
  readonly maxBodyBytes?: number;
}

export interface LocalnetRpc {
  /** The URL the endpoint answers on, with the port actually bound. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const API_VERSION = '2.2.0';
const MAX_BATCH = 1_000;
const MAX_ACCOUNTS = 100;
const MAX_SIGNATURES = 256;
const MAX_FEE_ACCOUNTS = 128;
const MAX_ACCOUNT_SPACE = 10 * 1024 * 1024;
const U64_MAX_TEXT = '18446744073709551615';
/** How far back getSignatureStatuses looks without searchTransactionHistory (the status cache). */
const STATUS_CACHE_SLOTS = 300n;

const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const PARSE_ERROR = -32700;
const PREFLIGHT_FAILURE = -32002;
const SIGNATURE_FAILURE = -32003;
const UNSUPPORTED_VERSION = -32015;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const invalidParams = (message: string) => new RpcError(INVALID_PARAMS, message);

/** JSON with bigints written as plain integers, as the RPC writes u64 values. */
function toJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
      const parts: string[] = [];
      for (const [key, item] of Object.entries(value)) {
        if (item !== undefined) parts.push(`${JSON.stringify(key)}:${toJson(item)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return 'null';
  }
}

function paramsOf(request: { params?: unknown }): unknown[] {
  if (request.params === undefined) return [];
  if (!Array.isArray(request.params)) throw invalidParams('Invalid params: expected an array');
  return request.params;
}

function configOf(params: unknown[], index: number): Record<string, unknown> {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParams('Invalid params: expected a configuration object');
  return value as Record<string, unknown>;
}

function pubkeyParam(value: unknown): PublicKey {
  if (!isPublicKey(value)) throw invalidParams('Invalid param: Invalid');
  return value;
}

function signatureParam(value: unknown): Signature {
  if (!isSignature(value)) throw invalidParams('Invalid param: Invalid');
  return value;
}

function integerParam(value: unknown, name: string, max: bigint): bigint {
  let parsed: bigint | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === 'string' && /^\d{1,20}$/.test(value)) parsed = BigInt(value);
  if (parsed === undefined || parsed < 0n || parsed > max)
    throw invalidParams(`Invalid params: ${name} must be an integer in range`);
  return parsed;
}

const base58Encoder = getBase58Encoder();

function decodeEncoded(value: unknown, encoding: unknown): Uint8Array {
  if (typeof value !== 'string') throw invalidParams('Invalid params: expected an encoded transaction');
  let bytes: Uint8Array | undefined;
  if (encoding === undefined || encoding === null || encoding === 'base58') {
    try {
      bytes =
        value.length > 0 && value.length <= 2_000 ? new Uint8Array(base58Encoder.encode(value)) : undefined;
    } catch {
      bytes = undefined;
    }
  } else if (encoding === 'base64') {
    bytes = value.length <= 2_000 && /^[A-Za-z0-9+/]*={0,2}$/.test(value) ? fromBase64(value) : undefined;
  } else {
    throw invalidParams(`Invalid params: unsupported encoding: ${String(encoding).slice(0, 32)}`);
  }
  if (!bytes || bytes.length === 0)
    throw invalidParams('invalid transaction: failed to decode the encoded transaction');
  return bytes;
}

function accountJson(account: LocalAccount, encoding: unknown, slice?: { offset: number; length: number }) {
  const data = slice ? account.data.subarray(slice.offset, slice.offset + slice.length) : account.data;
  let encoded: unknown;
  if (encoding === 'base58') {
    if (data.length > 128)
      throw invalidParams(
        'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.',
      );
    encoded = [encodeBase58(data), 'base58'];
  } else if (encoding === undefined || encoding === null || encoding === 'binary') {
    if (data.length > 128)
      throw invalidParams(
        'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.',
      );
    encoded = encodeBase58(data);
  } else if (encoding === 'base64' || encoding === 'jsonParsed') {
    // No account parsers here: jsonParsed falls back to base64, as the real RPC does for unknown owners.
    encoded = [toBase64(data), 'base64'];
  } else {
    throw invalidParams(`Invalid params: unsupported encoding: ${String(encoding).slice(0, 32)}`);
  }
  return {
    data: encoded,
    executable: account.executable,
    lamports: account.lamports,
    owner: account.owner,
    rentEpoch: BigInt(U64_MAX_TEXT),
    space: account.data.length,
  };
}

function dataSliceOf(config: Record<string, unknown>): { offset: number; length: number } | undefined {
  const slice = config.dataSlice;
  if (slice === undefined || slice === null) return undefined;
  const { offset, length } = slice as { offset?: unknown; length?: unknown };
  if (
    !Number.isSafeInteger(offset) ||
    !Number.isSafeInteger(length) ||
    (offset as number) < 0 ||
    (length as number) < 0
  ) {
    throw invalidParams('Invalid params: dataSlice needs a non-negative offset and length');
  }
  return { offset: offset as number, length: length as number };
}

function simulationFailure(rejected: WireRejection): RpcError {
  if (rejected.reason === 'malformed') return invalidParams(`invalid transaction: ${rejected.message}`);
  if (rejected.reason === 'signature')
    return new RpcError(SIGNATURE_FAILURE, 'Transaction signature verification failure');
  if (rejected.reason === 'unavailable') return new RpcError(INTERNAL_ERROR, rejected.message);
  const errJson: TransactionErrorJson = rejected.err ?? 'SanitizeFailure';
  return new RpcError(PREFLIGHT_FAILURE, `Transaction simulation failed: ${transactionErrorText(errJson)}`, {
    err: errJson,
    logs: rejected.logs ?? [],
    accounts: null,
    unitsConsumed: rejected.unitsConsumed ?? 0n,
    returnData: null,
    innerInstructions: null,
  });
}

function messageJson(message: ParsedMessage) {
  return {
    accountKeys: message.accountKeys.map(encodeBase58),
    header: {
      numRequiredSignatures: message.numRequiredSignatures,
      numReadonlySignedAccounts: message.numReadonlySigned,
      numReadonlyUnsignedAccounts: message.numReadonlyUnsigned,
    },
    recentBlockhash: encodeBase58(message.recentBlockhash),
    instructions: message.instructions.map((ix) => ({
      programIdIndex: ix.programIndex,
      accounts: [...ix.accountIndexes],
      data: encodeBase58(ix.data),
      stackHeight: null,
    })),
    ...(message.version === 0
      ? {
          addressTableLookups: message.lookups.map((lookup) => ({
            accountKey: encodeBase58(lookup.accountKey),
            writableIndexes: [...lookup.writableIndexes],
            readonlyIndexes: [...lookup.readonlyIndexes],
          })),
        }
      : {}),
  };
}

const COMMITMENT_RANK = { processed: 0, confirmed: 1, finalized: 2 } as const;

function commitmentOf(config: Record<string, unknown>, fallback: keyof typeof COMMITMENT_RANK) {
  const commitment = config.commitment ?? fallback;
  if (commitment === 'recent' || commitment === 'single' || commitment === 'singleGossip') return 'processed';
  if (commitment === 'max' || commitment === 'root') return 'finalized';
  if (commitment !== 'processed' && commitment !== 'confirmed' && commitment !== 'finalized') {
    throw invalidParams('Invalid params: unknown commitment');
  }
  return commitment;
}

type Handler = (params: unknown[]) => unknown;

function handlers(chain: LocalnetChain): Record<string, Handler> {
  const withContext = (value: unknown) => ({
    context: { apiVersion: API_VERSION, slot: chain.slot() },
    value,
  });

  const tokenAmount = (amount: bigint, decimals: number) => {
    const text = formatAmount(amount, decimals);
    return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text };
  };

  const mintDecimals = (mint: string): number | undefined => {
    const account = chain.account(mint);
    if (!account || account.data.length < 82) return undefined;
    if (
      account.owner !== 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' &&
      account.owner !== 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
    ) {
      return undefined;
    }
    return account.data[44];
  };

  const currencyByMint = (mint: string): Currency | undefined =>
    chain.currencies.all.find((currency) => currency.mint === mint);

  const unwrap = async <T>(result: ResultAsync<T, DomainError>): Promise<T> => {
    const outcome = await result;
    if (outcome.isOk()) return outcome.value;
    const error = outcome.error;
    throw new RpcError(
      error.code === 'CHAIN_UNAVAILABLE' ? INTERNAL_ERROR : INVALID_PARAMS,
      error.code === 'CHAIN_UNAVAILABLE' ? 'Internal error' : error.message,
    );
  };

  return {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': API_VERSION, 'feature-set': 0 }),
    getGenesisHash: () => chain.genesisHash,
    getSlot: () => chain.slot(),
    getBlockHeight: () => chain.slot(),
    getEpochInfo: () => chain.epochInfo(),
    getLatestBlockhash: () => withContext(chain.latestBlockhash()),
    isBlockhashValid: (params) => {
      if (typeof params[0] !== 'string') throw invalidParams('Invalid params: expected a blockhash');
      return withContext(chain.isBlockhashValid(params[0]));
    },
    getFeeForMessage: (params) => {
      if (typeof params[0] !== 'string') throw invalidParams('Invalid params: expected a base64 message');
      const message = fromBase64(params[0]);
      if (!message) throw invalidParams('Invalid params: message is not base64');
      return withContext(chain.feeFor(message));
    },
    getMinimumBalanceForRentExemption: (params) =>
      chain.minimumBalance(Number(integerParam(params[0], 'data length', BigInt(MAX_ACCOUNT_SPACE)))),

    getBalance: (params) => {
      const owner = pubkeyParam(params[0]);
      commitmentOf(configOf(params, 1), 'finalized');
      return withContext(chain.account(owner)?.lamports ?? 0n);
    },
    getAccountInfo: (params) => {
      const address = pubkeyParam(params[0]);
      const config = configOf(params, 1);
      const account = chain.account(address);
      return withContext(account ? accountJson(account, config.encoding, dataSliceOf(config)) : null);
    },
    getMultipleAccounts: (params) => {
      if (!Array.isArray(params[0])) throw invalidParams('Invalid params: expected an array of public keys');
      if (params[0].length > MAX_ACCOUNTS)
        throw invalidParams(`Too many inputs provided; max ${MAX_ACCOUNTS}`);
      const addresses = params[0].map(pubkeyParam);
      const config = configOf(params, 1);
      const slice = dataSliceOf(config);
      return withContext(
        addresses.map((address) => {
          const account = chain.account(address);
          return account ? accountJson(account, config.encoding, slice) : null;
        }),
      );
    },
    getTokenAccountBalance: (params) => {
      const address = pubkeyParam(params[0]);
      const account = chain.account(address);
      if (!account) throw invalidParams('Invalid param: could not find account');
      const isToken =
        (account.owner === 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' && account.data.length === 165) ||
        (account.owner === 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb' &&
          (account.data.length === 165 || (account.data.length > 165 && account.data[165] === 2)));
      if (!isToken) throw invalidParams('Invalid param: not a Token account');
      const decimals = mintDecimals(encodeBase58(account.data.subarray(0, 32)));
      if (decimals === undefined) throw invalidParams('Invalid param: could not find mint');
      return withContext(tokenAmount(tokenAccountAmount(account.data), decimals));
    },
    getTokenLargestAccounts: (params) => {
      const mint = pubkeyParam(params[0]);
      const decimals = mintDecimals(mint);
      if (decimals === undefined) throw invalidParams('Invalid param: not a Token mint');
      return withContext(
        chain
          .tokenHolders(mint)
          .map((holding) => ({ address: holding.address, ...tokenAmount(holding.amount, decimals) })),
      );
    },
    getRecentPrioritizationFees: async (params) => {
      const list = params[0] ?? [];
      if (!Array.isArray(list)) throw invalidParams('Invalid params: expected an array of public keys');
      if (list.length > MAX_FEE_ACCOUNTS)
        throw invalidParams(`Too many inputs provided; max ${MAX_FEE_ACCOUNTS}`);
      const fees = await unwrap<readonly { slot: bigint; fee: bigint }[]>(
        chain.getRecentPrioritizationFees(list.map(pubkeyParam)),
      );
      return fees.map((entry) => ({ slot: entry.slot, prioritizationFee: entry.fee }));
    },

    requestAirdrop: async (params) => {
      const to = pubkeyParam(params[0]);
      const lamports = integerParam(params[1], 'lamports', BigInt(U64_MAX_TEXT));
      if (lamports === 0n) throw invalidParams('Invalid params: lamports must be greater than zero');
      return unwrap<string>(chain.airdrop(to, chain.currencies.native, lamports));
    },

    sendTransaction: (params) => {
      const config = configOf(params, 1);
      const wire = decodeEncoded(params[0], config.encoding);
      const sent = chain.sendWire(wire, { preflight: config.skipPreflight !== true });
      if (sent.isErr()) throw simulationFailure(sent.error);
      return sent.value;
    },

    simulateTransaction: (params) => {
      const config = configOf(params, 1);
      const wire = decodeEncoded(params[0], config.encoding);
      const accounts = config.accounts as { addresses?: unknown; encoding?: unknown } | undefined | null;
      let addresses: string[] | undefined;
      if (accounts !== undefined && accounts !== null) {
        if (!Array.isArray(accounts.addresses))
          throw invalidParams('Invalid params: accounts.addresses must be an array');
        if (accounts.addresses.length > MAX_ACCOUNTS)
          throw invalidParams(`Too many accounts provided; max ${MAX_ACCOUNTS}`);
        addresses = accounts.addresses.map(pubkeyParam);
      }
      const simulated = chain.simulateWire(wire, {
        sigVerify: config.sigVerify === true,
        replaceRecentBlockhash: config.replaceRecentBlockhash === true,
        ...(addresses ? { accounts: addresses } : {}),
      });
      if (simulated.isErr()) {
        const rejected = simulated.error;
        if (rejected.reason === 'malformed' && /sigVerify/.test(rejected.message))
          throw invalidParams(rejected.message);
        throw simulationFailure(rejected);
      }
      const value: Simulation = simulated.value;
      const encoding = accounts?.encoding ?? 'base64';
      return withContext({
        err: value.err,
        logs: value.logs,
        accounts: value.accounts
          ? value.accounts.map((account) => (account ? accountJson(account, encoding) : null))
          : null,
        unitsConsumed: value.unitsConsumed,
        returnData: value.returnData
          ? { programId: value.returnData.programId, data: [toBase64(value.returnData.data), 'base64'] }
          : null,
        innerInstructions: null,
        ...(value.replacementBlockhash ? { replacementBlockhash: value.replacementBlockhash } : {}),
      });
    },

    getSignatureStatuses: (params) => {
      if (!Array.isArray(params[0])) throw invalidParams('Invalid params: expected an array of signatures');
      if (params[0].length > MAX_SIGNATURES)
        throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURES}`);
      const signatures = params[0].map(signatureParam);
      const search = configOf(params, 1).searchTransactionHistory === true;
      const horizon = chain.slot() - STATUS_CACHE_SLOTS;
      return withContext(
        signatures.map((signature) => {
          const status = chain.landed(signature);
          if (!status || (!search && status.slot < horizon)) return null;
          return {
            slot: status.slot,
            confirmations: status.confirmations,
            err: status.err,
            status: status.err === null ? { Ok: null } : { Err: status.err },
            confirmationStatus: status.commitment,
          };
        }),
      );
    },

    getTransaction: (params) => {
      const signature = signatureParam(params[0]);
      const config = typeof params[1] === 'string' ? { encoding: params[1] } : configOf(params, 1);
      const commitment = commitmentOf(config, 'finalized');
      if (commitment === 'processed')
        throw invalidParams('Method does not support commitment below `confirmed`');
      const encoding = config.encoding ?? 'json';
      if (!['json', 'jsonParsed', 'base64', 'base58'].includes(String(encoding))) {
        throw invalidParams(`Invalid params: unsupported encoding: ${String(encoding).slice(0, 32)}`);
      }
      const found = chain.transaction(signature);
      if (!found || COMMITMENT_RANK[found.commitment] < COMMITMENT_RANK[commitment]) return null;
      const maxVersion = config.maxSupportedTransactionVersion;
      if (found.message.version === 0 && (maxVersion === undefined || maxVersion === null)) {
        throw new RpcError(
          UNSUPPORTED_VERSION,
          'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
        );
      }
      const signatures: string[] = [];
      const count = found.message.numRequiredSignatures;
      // The signatures follow their one-byte count (a packet holds at most 19 of them).
      const sigStart = 1;
      for (let i = 0; i < count; i++)
        signatures.push(encodeBase58(found.wire.subarray(sigStart + i * 64, sigStart + (i + 1) * 64)));
      const transaction =
        encoding === 'base64'
          ? [toBase64(found.wire), 'base64']
          : encoding === 'base58'
            ? [encodeBase58(found.wire), 'base58']
            : { signatures, message: messageJson(found.message) };
      return {
        slot: found.slot,
        blockTime: found.blockTime,
        ...(maxVersion === undefined || maxVersion === null ? {} : { version: found.message.version }),
        transaction,
        meta: {
          err: found.err,
          status: found.err === null ? { Ok: null } : { Err: found.err },
          fee: found.fee,
          preBalances: found.preBalances,
          postBalances: found.postBalances,
          innerInstructions: [],
          logMessages: found.logs,
          preTokenBalances: [],
          postTokenBalances: [],
          rewards: [],
          loadedAddresses: found.loadedAddresses,
          computeUnitsConsumed: found.unitsConsumed,
        },
      };
    },

    localnet_getMints: () => ({
      mintAuthority: chain.mintAuthority,
      genesisHash: chain.genesisHash,
      currencies: chain.currencies.all.map((currency) => ({
        code: currency.code,
        kind: currency.kind,
        decimals: currency.decimals,
        ...(currency.mint ? { mint: currency.mint, tokenProgram: currency.tokenProgram } : {}),
      })),
    }),
    localnet_mintTo: async (params) => {
      const to = pubkeyParam(params[0]);
      const mint = pubkeyParam(params[1]);
      const amount = integerParam(params[2], 'amount', BigInt(U64_MAX_TEXT));
      const currency = currencyByMint(mint);
      if (!currency?.mint)
        throw invalidParams(
          'Invalid params: the localnet can mint only its own stablecoin and project token',
        );
      return unwrap<string>(chain.airdrop(to, currency, amount));
    },
  };
}

interface JsonRpcRequest {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
}

function errorResponse(id: unknown, error: RpcError) {
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

/** Answers one JSON-RPC request object; undefined for a notification (no id). */
async function answer(table: Record<string, Handler>, request: unknown): Promise<unknown> {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return errorResponse(null, new RpcError(INVALID_REQUEST, 'Invalid request'));
  }
  const { id, method, jsonrpc } = request as JsonRpcRequest;
  const validId = id === undefined || id === null || typeof id === 'string' || typeof id === 'number';
  if (jsonrpc !== '2.0' || typeof method !== 'string' || !validId) {
    return errorResponse(validId ? id : null, new RpcError(INVALID_REQUEST, 'Invalid request'));
  }
  const handler = Object.hasOwn(table, method) ? table[method] : undefined;
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
export async function handleJsonRpc(
  chain: LocalnetChain,
  body: unknown,
  table = handlers(chain),
): Promise<unknown> {
  if (!Array.isArray(body)) return answer(table, body);
  if (body.length === 0) return errorResponse(null, new RpcError(INVALID_REQUEST, 'Invalid request'));
  if (body.length > MAX_BATCH)
    return errorResponse(null, new RpcError(INVALID_REQUEST, `Batch larger than ${MAX_BATCH}`));
  const responses: unknown[] = [];
  // In order: a batch may send a transaction and then ask for its status.
  for (const request of body) {
    const response = await answer(table, request);
    if (response !== undefined) responses.push(response);
  }
  return responses.length > 0 ? responses : undefined;
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type, solana-client',
  'access-control-max-age': '86400',
};

function send(res: ServerResponse, status: number, body: string, contentType = 'application/json') {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    ...CORS_HEADERS,
  });
  res.end(body);
}

/** Serves the localnet's JSON-RPC over HTTP POST (GET /health answers "ok"). */
export async function startLocalnetRpc(
  chain: LocalnetChain,
  options: LocalnetRpcOptions = {},
): Promise<LocalnetRpc> {
  const host = options.host ?? '127.0.0.1';
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const table = handlers(chain);

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS);
      res.end();
      return;
    }
    if (req.method === 'GET') {
      if ((req.url ?? '/').split('?')[0] === '/health') send(res, 200, 'ok', 'text/plain');
      else send(res, 404, 'Not Found', 'text/plain');
      return;
    }
    if (req.method !== 'POST') {
      send(res, 405, 'Used HTTP Method is not allowed. POST or OPTIONS is required', 'text/plain');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        tooLarge = true;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) {
        send(res, 413, 'Payload Too Large', 'text/plain');
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        send(res, 200, toJson(errorResponse(null, new RpcError(PARSE_ERROR, 'Parse error'))));
        return;
      }
      handleJsonRpc(chain, body, table).then(
        (response) => {
          if (response === undefined) {
            res.writeHead(204, CORS_HEADERS);
            res.end();
          } else {
            send(res, 200, toJson(response));
          }
        },
        () => send(res, 200, toJson(errorResponse(null, new RpcError(INTERNAL_ERROR, 'Internal error')))),
      );
    });
    req.on('error', () => res.destroy());
  };

  const server = createServer({ keepAliveTimeout: 65_000 }, onRequest);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8899, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
