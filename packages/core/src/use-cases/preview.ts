import { err, errAsync, ok, okAsync, type Result, ResultAsync, safeTry } from 'neverthrow';
import { sha256Hex } from '../domain/hash.js';
import { formatAmount } from '../domain/money.js';
import type { PublicKey } from '../domain/public-key.js';
import { bytesEqual, fromBase64, fromBase64Url, toBase64, toBase64Url } from '../domain/wire.js';
import { type DomainError, domainError } from '../errors.js';
import type { PreparedTransaction } from '../ports/chain.js';
import {
  type Action,
  type ActionType,
  authorizeAction,
  parseAction,
  planAction,
  rejectUnknownType,
} from './actions.js';
import type { ActionDeps } from './deps.js';
import { prepareIntent } from './submit.js';

export interface PreviewInput {
  readonly account: unknown;
  readonly transactionType: unknown;
  readonly details: unknown;
}

export interface BalanceChange {
  readonly account: string;
  readonly currency: string;
  /** Signed decimal string, negative for a debit. */
  readonly amount: string;
}

export interface PreviewOutcome {
  /** Opaque, tamper-evident: `v1.<payload>.<mac>`. */
  readonly preview: string;
  readonly transactionType: ActionType;
  readonly expiresAt: Date;
  readonly feeLamports: bigint;
  readonly lastValidBlockHeight: bigint;
  readonly balanceChanges: readonly BalanceChange[];
}

/** The sealed content. Short keys keep the preview string small. */
interface Sealed {
  readonly v: 1;
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
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

function requestDigest(account: unknown, type: ActionType, details: Record<string, unknown>) {
  return ResultAsync.fromSafePromise(sha256Hex(canonicalJson({ account, transactionType: type, details })));
}

function parseDetails(value: unknown): Result<Record<string, unknown>, DomainError> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? ok(value as Record<string, unknown>)
    : err(domainError('INVALID_INPUT', 'details must be an object'));
}

/** The action a preview request describes: details plus the sender, who also owns a minted NFT by default. */
export function actionFromRequest(
  deps: Pick<ActionDeps, 'currencies' | 'accounts'>,
  input: PreviewInput,
): Result<{ type: ActionType; details: Record<string, unknown>; action: Action }, DomainError> {
  return rejectUnknownType(input.transactionType).andThen((type) =>
    parseDetails(input.details).andThen((details) => {
      if (typeof input.account !== 'string') {
        return err(domainError('INVALID_PUBLIC_KEY', 'account must be a base58 public key string'));
      }
      const raw: Record<string, unknown> =
        type === 'mint' ? { owner: input.account, ...details } : { ...details, account: input.account };
      return parseAction(deps, type, raw).map((action) => ({ type, details, action }));
    }),
  );
}

function balanceChanges(action: Action, to: PublicKey | undefined): BalanceChange[] {
  if (action.type === 'mint') return [{ account: action.owner, currency: 'NFT', amount: '1' }];
  const amount = formatAmount(action.amount, action.currency.decimals);
  return [
    { account: action.from, currency: action.currency.code, amount: `-${amount}` },
    { account: to ?? action.from, currency: action.currency.code, amount },
  ];
}

/** Builds the transaction now and seals it, so `sign` later sends exactly what the caller saw. */
export function preview(deps: ActionDeps, input: PreviewInput): ResultAsync<PreviewOutcome, DomainError> {
  return safeTry(async function* () {
    const { type, details, action: parsed } = yield* actionFromRequest(deps, input);
    const action = yield* authorizeAction(deps, parsed);
    const plan = planAction(deps, action);
    const prepared = yield* prepareIntent(deps, plan.intent, action.priority);
    const digest = yield* requestDigest(input.account, type, details);
    const expiresAt = new Date(deps.clock.now().getTime() + deps.policies.previewTtlMs);
    const sealed: Sealed = {
      v: 1,
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
    return ok({
      preview: `v1.${toBase64Url(payload)}.${toBase64Url(tag)}`,
      transactionType: type,
      expiresAt,
      feeLamports: prepared.feeLamports,
      lastValidBlockHeight: prepared.lastValidBlockHeight,
      balanceChanges: balanceChanges(action, plan.intent.kind === 'transfer' ? plan.intent.to : undefined),
    });
  });
}

const invalidPreview = () =>
  domainError('PREVIEW_INVALID', 'preview is malformed or has been tampered with; request a new preview');

/** Verifies the MAC and decodes the sealed transaction. */
export function openPreview(
  deps: Pick<ActionDeps, 'mac'>,
  preview: unknown,
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
    if (sealed.v !== 1 || !message) return errAsync(invalidPreview());
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

export function checkPreviewMatches(
  sealed: Sealed,
  input: PreviewInput,
  type: ActionType,
  details: Record<string, unknown>,
): ResultAsync<true, DomainError> {
  return requestDigest(input.account, type, details).andThen((digest) =>
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
