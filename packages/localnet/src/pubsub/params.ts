import { isPublicKey, isSignature } from '@token-actions/core';
import { err, ok, type Result } from 'neverthrow';
import { type AccountEncoding, type DataSlice, isAccountEncoding } from '../parsed/account.js';
import { type AccountFilter, parseAccountFilters } from '../parsed/filters.js';
import type { Commitment } from './events.js';

/** A JSON-RPC error object. */
export interface RpcErrorBody {
  readonly code: number;
  readonly message: string;
}

/** A subscription request after validation (agave's `SubscriptionParams`). */
export type SubscriptionSpec =
  | {
      readonly kind: 'account';
      readonly pubkey: string;
      readonly commitment: Commitment;
      readonly encoding: AccountEncoding;
      readonly dataSlice?: DataSlice;
    }
  | {
      readonly kind: 'program';
      readonly programId: string;
      readonly commitment: Commitment;
      readonly encoding: AccountEncoding;
      readonly dataSlice?: DataSlice;
      readonly filters: readonly AccountFilter[];
    }
  | { readonly kind: 'logs'; readonly mentions?: string; readonly commitment: Commitment }
  | {
      readonly kind: 'signature';
      readonly signature: string;
      readonly commitment: Commitment;
      readonly enableReceivedNotification: boolean;
    }
  | { readonly kind: 'slot' }
  | { readonly kind: 'slotsUpdates' }
  | { readonly kind: 'root' };

export type SubscriptionKind = SubscriptionSpec['kind'];

/** The subscribe methods this service answers, and the notification method each one's updates use. */
export const SUBSCRIBE_METHODS: Readonly<Record<string, SubscriptionKind>> = {
  accountSubscribe: 'account',
  programSubscribe: 'program',
  logsSubscribe: 'logs',
  signatureSubscribe: 'signature',
  slotSubscribe: 'slot',
  slotsUpdatesSubscribe: 'slotsUpdates',
  rootSubscribe: 'root',
};

export const UNSUBSCRIBE_METHODS: ReadonlySet<string> = new Set(
  Object.keys(SUBSCRIBE_METHODS).map((method) => method.replace('Subscribe', 'Unsubscribe')),
);

export const NOTIFICATION_METHODS: Readonly<Record<SubscriptionKind, string>> = {
  account: 'accountNotification',
  program: 'programNotification',
  logs: 'logsNotification',
  signature: 'signatureNotification',
  slot: 'slotNotification',
  slotsUpdates: 'slotsUpdatesNotification',
  root: 'rootNotification',
};

const INVALID_PARAMS = -32602;
const invalid = (message: string): RpcErrorBody => ({ code: INVALID_PARAMS, message });

/** The names serde accepts for `CommitmentLevel`, the deprecated ones mapped as agave maps them. */
const COMMITMENT_NAMES: Readonly<Record<string, Commitment>> = {
  processed: 'processed',
  confirmed: 'confirmed',
  finalized: 'finalized',
  recent: 'processed',
  single: 'confirmed',
  singleGossip: 'confirmed',
  root: 'finalized',
  max: 'finalized',
};

type Config = Record<string, unknown>;

function configAt(params: readonly unknown[], index: number): Result<Config, RpcErrorBody> {
  const value = params[index];
  if (value === undefined || value === null) return ok({});
  if (typeof value !== 'object' || Array.isArray(value))
    return err(invalid('Invalid params: expected a configuration object'));
  return ok(value as Config);
}

function commitmentOf(config: Config): Result<Commitment, RpcErrorBody> {
  // The RPC's default commitment is finalized.
  if (config.commitment === undefined || config.commitment === null) return ok('finalized');
  const level = typeof config.commitment === 'string' ? COMMITMENT_NAMES[config.commitment] : undefined;
  return level
    ? ok(level)
    : err(invalid(`Invalid params: unknown commitment \`${String(config.commitment).slice(0, 32)}\``));
}

function encodingOf(config: Config): Result<AccountEncoding, RpcErrorBody> {
  // agave's pubsub default is the legacy `binary` (a bare base58 string).
  if (config.encoding === undefined || config.encoding === null) return ok('binary');
  return isAccountEncoding(config.encoding)
    ? ok(config.encoding)
    : err(invalid(`Invalid params: unknown encoding \`${String(config.encoding).slice(0, 32)}\``));
}

function dataSliceOf(config: Config): Result<DataSlice | undefined, RpcErrorBody> {
  const slice = config.dataSlice;
  if (slice === undefined || slice === null) return ok(undefined);
  const { offset, length } = slice as { offset?: unknown; length?: unknown };
  const usize = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
  return usize(offset) && usize(length)
    ? ok({ offset, length })
    : err(invalid('Invalid params: dataSlice needs a non-negative offset and length'));
}

function pubkeyAt(params: readonly unknown[], thing: string): Result<string, RpcErrorBody> {
  const value = params[0];
  return isPublicKey(value) ? ok(value) : err(invalid(`Invalid Request: Invalid ${thing} provided`));
}

function accountParams(params: readonly unknown[]): Result<SubscriptionSpec, RpcErrorBody> {
  return pubkeyAt(params, 'pubkey').andThen((pubkey) =>
    configAt(params, 1).andThen((config) =>
      commitmentOf(config).andThen((commitment) =>
        encodingOf(config).andThen((encoding) =>
          dataSliceOf(config).map(
            (dataSlice): SubscriptionSpec => ({
              kind: 'account',
              pubkey,
              commitment,
              encoding,
              ...(dataSlice ? { dataSlice } : {}),
            }),
          ),
        ),
      ),
    ),
  );
}

function programParams(params: readonly unknown[]): Result<SubscriptionSpec, RpcErrorBody> {
  return pubkeyAt(params, 'pubkey').andThen((programId) =>
    configAt(params, 1).andThen((config) =>
      commitmentOf(config).andThen((commitment) =>
        encodingOf(config).andThen((encoding) =>
          dataSliceOf(config).andThen((dataSlice) =>
            parseAccountFilters(config.filters).map(
              (filters): SubscriptionSpec => ({
                kind: 'program',
                programId,
                commitment,
                encoding,
                filters,
                ...(dataSlice ? { dataSlice } : {}),
              }),
            ),
          ),
        ),
      ),
    ),
  );
}

function logsParams(params: readonly unknown[]): Result<SubscriptionSpec, RpcErrorBody> {
  const filter = params[0];
  let mentions: string | undefined;
  if (filter === 'all' || filter === 'allWithVotes') {
    mentions = undefined;
  } else if (typeof filter === 'object' && filter !== null && Array.isArray((filter as Config).mentions)) {
    const keys = (filter as { mentions: unknown[] }).mentions;
    if (keys.length !== 1) return err(invalid('Invalid Request: Only 1 address supported'));
    if (!isPublicKey(keys[0])) return err(invalid('Invalid Request: Invalid mentions provided'));
    mentions = keys[0];
  } else {
    return err(invalid('Invalid params: the filter is "all", "allWithVotes" or {"mentions": [address]}'));
  }
  return configAt(params, 1).andThen((config) =>
    commitmentOf(config).map(
      (commitment): SubscriptionSpec => ({
        kind: 'logs',
        commitment,
        ...(mentions ? { mentions } : {}),
      }),
    ),
  );
}

function signatureParams(params: readonly unknown[]): Result<SubscriptionSpec, RpcErrorBody> {
  const signature = params[0];
  if (!isSignature(signature)) return err(invalid('Invalid Request: Invalid signature provided'));
  return configAt(params, 1).andThen((config) =>
    commitmentOf(config).map(
      (commitment): SubscriptionSpec => ({
        kind: 'signature',
        signature,
        commitment,
        enableReceivedNotification: config.enableReceivedNotification === true,
      }),
    ),
  );
}

/** Validates a subscribe request's params as agave's `rpc_pubsub` does, with its error messages. */
export function parseSubscription(
  kind: SubscriptionKind,
  params: unknown,
): Result<SubscriptionSpec, RpcErrorBody> {
  if (params !== undefined && params !== null && !Array.isArray(params))
    return err(invalid('Invalid params: expected an array'));
  const list: readonly unknown[] = Array.isArray(params) ? params : [];
  switch (kind) {
    case 'account':
      return accountParams(list);
    case 'program':
      return programParams(list);
    case 'logs':
      return logsParams(list);
    case 'signature':
      return signatureParams(list);
    case 'slot':
      return ok({ kind: 'slot' });
    case 'slotsUpdates':
      return ok({ kind: 'slotsUpdates' });
    case 'root':
      return ok({ kind: 'root' });
  }
}
