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

/** How the pool book's rows map to core records (bigints as decimal strings, bytes as base64 in JSON). */

export type Row = Record<string, unknown>;

export const POOL_COLUMNS =
  'id, token_a, token_b, reserve_a, reserve_b, reserved_a, reserved_b, fee_bps, authority, created_at, updated_at';
export const REQUEST_COLUMNS = `request_id, source, provider, client_id, user_account, input_token, output_token, in_amount,
  out_amount, min_out_amount, fee_amount, price_impact_ppm, slippage_bps, hops, status, transaction_id, message,
  signers, presigned, blockhash, last_valid_block_height, fee_lamports, compute_unit_limit, compute_unit_price,
  signed_wire, expires_at, error, created_at, updated_at, notified_at`;

const big = (v: unknown): bigint => {
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  throw new Error('expected an integer column');
};
const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));
const bytes = (v: unknown) => new Uint8Array(v as Uint8Array);
const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

export function toPool(row: Row): PoolRecord {
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
function feePayerSignature(row: Row): { transactionId?: Signature } {
  const signers = json(row.signers) as string[] | null;
  const presigned = json(row.presigned) as Record<string, string> | null;
  const first = signers?.[0] ? presigned?.[signers[0]] : undefined;
  return first ? { transactionId: encodeBase58(Buffer.from(first, 'base64')) as Signature } : {};
}

export function toRequest(row: Row): SwapRequestRecord {
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

/** The statement parameters of a swap request row: REQUEST_COLUMNS, then `pool_ids`. */
export function requestParams(r: SwapRequestRecord): unknown[] {
  return [
    r.requestId,
    r.source,
    r.provider,
    r.clientId,
    r.user,
    r.inputToken,
    r.outputToken,
    r.inAmount.toString(),
    r.outAmount.toString(),
    r.minOutAmount.toString(),
    r.feeAmount.toString(),
    r.priceImpactPpm.toString(),
    r.slippageBps,
    hopsJson(r.hops),
    r.status,
    r.transactionId ?? r.transaction?.transactionId ?? null,
    r.transaction?.message ?? null,
    r.transaction ? JSON.stringify(r.transaction.signers) : null,
    r.transaction ? presignedJson(r.transaction.presigned) : null,
    r.transaction?.blockhash ?? null,
    r.transaction?.lastValidBlockHeight.toString() ?? null,
    r.transaction?.feeLamports.toString() ?? null,
    r.transaction?.computeUnitLimit ?? null,
    r.transaction?.computeUnitPrice.toString() ?? null,
    r.signedWire ?? null,
    r.expiresAt,
    r.error ?? null,
    r.createdAt,
    r.updatedAt,
    r.notifiedAt ?? null,
    [...new Set(r.hops.map((h) => h.pool))],
  ];
}
