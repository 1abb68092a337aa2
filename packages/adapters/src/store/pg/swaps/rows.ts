import {
  encodeBase58,
  type PoolRecord,
  type PublicKey,
  type Signature,
  type SwapHop,
  type SwapRequestRecord,
  type SwapStatus,
  type SwapTransaction,
} from '@token-actions/core';
import { columnList, insertRows, type WrittenColumn } from '../statement.js';

/** How the pool book's rows map to core records (bigints as decimal strings, bytes as base64 in JSON). */

const POOL_FIELDS = [
  'id',
  'token_a',
  'token_b',
  'reserve_a',
  'reserve_b',
  'reserved_a',
  'reserved_b',
  'fee_bps',
  'authority',
  'created_at',
  'updated_at',
] as const;

/** A pools row as `POOL_COLUMNS` selects it: reading a column it does not select does not compile. */
export type PoolRow = Readonly<Record<(typeof POOL_FIELDS)[number], unknown>>;
export const POOL_COLUMNS = POOL_FIELDS.join(', ');

const big = (v: unknown): bigint => {
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  throw new Error('expected an integer column');
};
const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));
const bytes = (v: unknown) => new Uint8Array(v as Uint8Array);
const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

export function toPool(row: PoolRow): PoolRecord {
  return {
    id: String(row.id),
    tokenA: String(row.token_a),
    tokenB: String(row.token_b),
    reserveA: big(row.reserve_a),
    reserveB: big(row.reserve_b),
    reservedA: big(row.reserved_a),
    reservedB: big(row.reserved_b),
    feeBps: Number(row.fee_bps),
    authority: String(row.authority) as PublicKey,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export const hopsJson = (hops: readonly SwapHop[]) =>
  JSON.stringify(
    hops.map((h) => ({
      ...h,
      inAmount: h.inAmount.toString(),
      outAmount: h.outAmount.toString(),
      feeAmount: h.feeAmount.toString(),
    })),
  );

export function toHops(value: unknown): SwapHop[] {
  return (json(value) as Record<string, string>[]).map((h) => ({
    pool: h.pool!,
    inputToken: h.inputToken!,
    outputToken: h.outputToken!,
    inAmount: BigInt(h.inAmount!),
    outAmount: BigInt(h.outAmount!),
    feeAmount: BigInt(h.feeAmount!),
  }));
}

export const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** The transaction id known at build time: the fee payer's signature, when the service made it. */
function feePayerSignature(row: RequestRow): { transactionId?: Signature } {
  const signers = json(row.signers) as string[] | null;
  const presigned = json(row.presigned) as Record<string, string> | null;
  const first = signers?.[0] ? presigned?.[signers[0]] : undefined;
  return first ? { transactionId: encodeBase58(Buffer.from(first, 'base64')) as Signature } : {};
}

export function toRequest(row: RequestRow): SwapRequestRecord {
  const transaction: SwapTransaction | undefined =
    row.message != null
      ? {
          ...feePayerSignature(row),
          message: bytes(row.message),
          signers: json(row.signers) as PublicKey[],
          presigned: Object.fromEntries(
            Object.entries(json(row.presigned) as Record<string, string>).map(([k, v]) => [
              k,
              new Uint8Array(Buffer.from(v, 'base64')),
            ]),
          ),
          blockhash: String(row.blockhash ?? ''),
          lastValidBlockHeight: big(row.last_valid_block_height),
          feeLamports: big(row.fee_lamports ?? '0'),
          computeUnitLimit: Number(row.compute_unit_limit ?? 0),
          computeUnitPrice: big(row.compute_unit_price ?? '0'),
        }
      : undefined;
  return {
    requestId: String(row.request_id),
    source: String(row.source) as SwapRequestRecord['source'],
    provider: String(row.provider),
    clientId: String(row.client_id),
    user: String(row.user_account) as PublicKey,
    inputToken: String(row.input_token),
    outputToken: String(row.output_token),
    inAmount: big(row.in_amount),
    outAmount: big(row.out_amount),
    minOutAmount: big(row.min_out_amount),
    feeAmount: big(row.fee_amount),
    priceImpactPpm: big(row.price_impact_ppm),
    slippageBps: Number(row.slippage_bps),
    hops: toHops(row.hops),
    status: String(row.status) as SwapStatus,
    ...(row.transaction_id != null ? { transactionId: String(row.transaction_id) as Signature } : {}),
    ...(transaction ? { transaction } : {}),
    ...(row.signed_wire != null ? { signedWire: bytes(row.signed_wire) } : {}),
    expiresAt: date(row.expires_at),
    ...(row.error != null ? { error: String(row.error) } : {}),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    ...(row.notified_at != null ? { notifiedAt: date(row.notified_at) } : {}),
  };
}

/** The `presigned` column: each signer's signature in base64. */
function presignedJson(presigned: Readonly<Record<string, Uint8Array>>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(presigned).map(([k, v]) => [k, b64(v)])));
}

/** The columns of a swap request, each with the value a record writes to it. */
const REQUEST_FIELDS = [
  { name: 'request_id', value: (r: SwapRequestRecord) => r.requestId },
  { name: 'source', value: (r: SwapRequestRecord) => r.source },
  { name: 'provider', value: (r: SwapRequestRecord) => r.provider },
  { name: 'client_id', value: (r: SwapRequestRecord) => r.clientId },
  { name: 'user_account', value: (r: SwapRequestRecord) => r.user },
  { name: 'input_token', value: (r: SwapRequestRecord) => r.inputToken },
  { name: 'output_token', value: (r: SwapRequestRecord) => r.outputToken },
  { name: 'in_amount', value: (r: SwapRequestRecord) => r.inAmount.toString() },
  { name: 'out_amount', value: (r: SwapRequestRecord) => r.outAmount.toString() },
  { name: 'min_out_amount', value: (r: SwapRequestRecord) => r.minOutAmount.toString() },
  { name: 'fee_amount', value: (r: SwapRequestRecord) => r.feeAmount.toString() },
  { name: 'price_impact_ppm', value: (r: SwapRequestRecord) => r.priceImpactPpm.toString() },
  { name: 'slippage_bps', value: (r: SwapRequestRecord) => r.slippageBps },
  { name: 'hops', cast: 'jsonb', value: (r: SwapRequestRecord) => hopsJson(r.hops) },
  { name: 'status', value: (r: SwapRequestRecord) => r.status },
  {
    name: 'transaction_id',
    value: (r: SwapRequestRecord) => r.transactionId ?? r.transaction?.transactionId ?? null,
  },
  { name: 'message', value: (r: SwapRequestRecord) => r.transaction?.message ?? null },
  {
    name: 'signers',
    cast: 'jsonb',
    value: (r: SwapRequestRecord) => (r.transaction ? JSON.stringify(r.transaction.signers) : null),
  },
  {
    name: 'presigned',
    cast: 'jsonb',
    value: (r: SwapRequestRecord) => (r.transaction ? presignedJson(r.transaction.presigned) : null),
  },
  { name: 'blockhash', value: (r: SwapRequestRecord) => r.transaction?.blockhash ?? null },
  {
    name: 'last_valid_block_height',
    value: (r: SwapRequestRecord) => r.transaction?.lastValidBlockHeight.toString() ?? null,
  },
  { name: 'fee_lamports', value: (r: SwapRequestRecord) => r.transaction?.feeLamports.toString() ?? null },
  { name: 'compute_unit_limit', value: (r: SwapRequestRecord) => r.transaction?.computeUnitLimit ?? null },
  {
    name: 'compute_unit_price',
    value: (r: SwapRequestRecord) => r.transaction?.computeUnitPrice.toString() ?? null,
  },
  { name: 'signed_wire', value: (r: SwapRequestRecord) => r.signedWire ?? null },
  { name: 'expires_at', value: (r: SwapRequestRecord) => r.expiresAt },
  { name: 'error', value: (r: SwapRequestRecord) => r.error ?? null },
  { name: 'created_at', value: (r: SwapRequestRecord) => r.createdAt },
  { name: 'updated_at', value: (r: SwapRequestRecord) => r.updatedAt },
  { name: 'notified_at', value: (r: SwapRequestRecord) => r.notifiedAt ?? null },
] as const satisfies readonly WrittenColumn<SwapRequestRecord>[];

/** A swap_requests row as `REQUEST_COLUMNS` selects it. */
export type RequestRow = Readonly<Record<(typeof REQUEST_FIELDS)[number]['name'], unknown>>;
export const REQUEST_COLUMNS = columnList(REQUEST_FIELDS);

/**
 * What a new swap_requests row is written with: every selected column, and `pool_ids` (the pools
 * the request crosses, once each), which a history page filters on but no record carries.
 */
export const REQUEST_INSERT_COLUMNS: readonly WrittenColumn<SwapRequestRecord>[] = [
  ...REQUEST_FIELDS,
  { name: 'pool_ids', value: (r) => [...new Set(r.hops.map((h) => h.pool))] },
];

/** Inserts swap requests, many in one statement, the first placeholder being `$first`. */
export function insertRequestRows(records: readonly SwapRequestRecord[], first = 1) {
  return insertRows('swap_requests', REQUEST_INSERT_COLUMNS, records, first);
}
