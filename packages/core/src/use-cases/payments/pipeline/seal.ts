import { errAsync, ok, okAsync, ResultAsync, safeTry } from 'neverthrow';
import { sha256Hex } from '../../../domain/hash.js';
import type { PublicKey } from '../../../domain/public-key.js';
import { DEFAULT_TENANT, type TenantId } from '../../../domain/tenant.js';
import { bytesEqual, fromBase64, fromBase64Url, toBase64, toBase64Url } from '../../../domain/wire.js';
import { type DomainError, domainError } from '../../../errors.js';
import type { PreparedTransaction } from '../../../ports/chain.js';
import type { ActionDeps } from '../deps.js';
import type { ActionType } from './payment.js';

/** The sealed content. Short keys keep the preview string small. */
export interface Sealed {
  readonly v: 1;
  /** The tenant it was issued to; absent in previews sealed before tenants existed (the default tenant). */
  readonly t?: string;
  /** SHA-256 (hex) of the canonical request: account, transactionType and details. */
  readonly d: string;
  readonly x: number;
  readonly m: string;
  readonly s: readonly string[];
  readonly p: Record<string, string>;
  readonly bh: string;
  readonly lv: string;
  readonly cl: number;
  readonly cp: string;
  readonly f: string;
  readonly mint?: string;
}

/** JSON with object keys sorted, so equal requests hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What a preview is bound to: the sign request must repeat it. */
export interface SealedRequest {
  readonly account: unknown;
  readonly type: ActionType;
  readonly details: Record<string, unknown>;
}

function requestDigest({ account, type, details }: SealedRequest) {
  return ResultAsync.fromSafePromise(sha256Hex(canonicalJson({ account, transactionType: type, details })));
}

/**
 * Seals a prepared transaction with the request it answers, under the service's MAC, so `sign`
 * later sends exactly what the caller saw: `v1.<payload>.<mac>`.
 */
export function sealPreview(
  deps: Pick<ActionDeps, 'mac'>,
  tenant: TenantId,
  request: SealedRequest,
  prepared: PreparedTransaction,
  expiresAt: Date,
): ResultAsync<string, DomainError> {
  return safeTry(async function* () {
    const digest = yield* requestDigest(request);
    const sealed: Sealed = {
      v: 1,
      t: tenant,
      d: digest,
      x: expiresAt.getTime(),
      m: toBase64(prepared.message),
      s: prepared.signers,
      p: Object.fromEntries(Object.entries(prepared.presigned).map(([k, sig]) => [k, toBase64(sig)])),
      bh: prepared.blockhash,
      lv: prepared.lastValidBlockHeight.toString(),
      cl: prepared.computeUnitLimit,
      cp: prepared.computeUnitPrice.toString(),
      f: prepared.feeLamports.toString(),
      ...(prepared.mint ? { mint: prepared.mint } : {}),
    };
    const payload = new TextEncoder().encode(JSON.stringify(sealed));
    const tag = yield* ResultAsync.fromSafePromise(deps.mac.sign(payload));
    return ok(`v1.${toBase64Url(payload)}.${toBase64Url(tag)}`);
  });
}

const invalidPreview = () =>
  domainError('PREVIEW_INVALID', 'preview is malformed or has been tampered with; request a new preview');

/**
 * Verifies the MAC and decodes the sealed transaction. A preview issued to another tenant is
 * refused exactly like a forged one, so it tells the caller nothing.
 */
export function openPreview(
  deps: Pick<ActionDeps, 'mac'>,
  preview: unknown,
  tenant: TenantId,
): ResultAsync<{ sealed: Sealed; prepared: PreparedTransaction }, DomainError> {
  if (typeof preview !== 'string' || preview.length > 16_384) return errAsync(invalidPreview());
  const parts = preview.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1') return errAsync(invalidPreview());
  const payload = fromBase64Url(parts[1]!);
  const tag = fromBase64Url(parts[2]!);
  if (!payload || !tag || tag.length !== 32) return errAsync(invalidPreview());
  return ResultAsync.fromSafePromise(deps.mac.verify(payload, tag)).andThen((valid) => {
    if (!valid) return errAsync(invalidPreview());
    let sealed: Sealed;
    try {
      sealed = JSON.parse(new TextDecoder().decode(payload)) as Sealed;
    } catch {
      return errAsync(invalidPreview());
    }
    const message = fromBase64(sealed.m);
    if (sealed.v !== 1 || !message || (sealed.t ?? DEFAULT_TENANT) !== tenant) {
      return errAsync(invalidPreview());
    }
    const presigned: Record<string, Uint8Array> = {};
    for (const [k, v] of Object.entries(sealed.p)) {
      const sig = fromBase64(v);
      if (!sig) return errAsync(invalidPreview());
      presigned[k] = sig;
    }
    return okAsync({
      sealed,
      prepared: {
        message,
        signers: sealed.s as PreparedTransaction['signers'],
        presigned,
        blockhash: sealed.bh,
        lastValidBlockHeight: BigInt(sealed.lv),
        computeUnitLimit: sealed.cl,
        computeUnitPrice: BigInt(sealed.cp),
        feeLamports: BigInt(sealed.f),
        writableAccounts: [],
        ...(sealed.mint ? { mint: sealed.mint as PublicKey } : {}),
      },
    });
  });
}

/** The request a sign call carries must be the one previewed, byte for byte once canonicalised. */
export function checkPreviewMatches(sealed: Sealed, request: SealedRequest): ResultAsync<true, DomainError> {
  return requestDigest(request).andThen((digest) =>
    bytesEqual(new TextEncoder().encode(digest), new TextEncoder().encode(sealed.d))
      ? okAsync(true as const)
      : errAsync(
          domainError(
            'PREVIEW_MISMATCH',
            'preview does not match this request: account, transactionType and details must be those previewed',
          ),
        ),
  );
}
