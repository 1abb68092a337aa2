import { err, errAsync, ok, okAsync, type Result, type ResultAsync, safeTry } from 'neverthrow';
import { z } from 'zod';
import { parseTenantId, type TenantId } from '../../domain/tenant.js';
import { type DomainError, domainError } from '../../errors.js';
import { hashSecret, randomId, randomSecret } from '../../oauth/secrets.js';
import type { ClockPort } from '../../ports/clock.js';
import { type ApiKeyRecord, isApiKeyActive, type StorePort } from '../../ports/store.js';

export type AdminDeps = { readonly store: StorePort; readonly clock: ClockPort };

/** Interface A keys: `ta_` and 43 alphanumerics (256 bits), recognisable to secret scanners. */
export const API_KEY_PREFIX = 'ta_';
/** How much of a key a listing shows: the prefix and eight characters, far too few to guess the rest. */
const SHOWN_CHARACTERS = API_KEY_PREFIX.length + 8;
const MAX_OVERLAP_SECONDS = 30 * 24 * 3600;

export const CreateApiKeyRequest = z
  .strictObject({
    label: z
      .string()
      .meta({ description: 'What the key is for (1-64 characters)', example: 'acme production' }),
    tenant: z.string().optional().meta({
      description:
        'The tenant the key belongs to; created when it does not exist. Absent: a new tenant of its own.',
      example: 'acme',
    }),
  })
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

export const RotateApiKeyRequest = z
  .strictObject({
    overlapSeconds: z
      .number()
      .optional()
      .meta({ description: 'How long the old key keeps working (0-2592000; default 3600)', example: 3600 }),
  })
  .meta({ id: 'RotateApiKeyRequest' });
export type RotateApiKeyRequest = z.infer<typeof RotateApiKeyRequest>;

export interface IssuedApiKey {
  readonly record: ApiKeyRecord;
  /** The secret: shown once, never stored. */
  readonly apiKey: string;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

function parseLabel(value: unknown): Result<string, DomainError> {
  return typeof value === 'string' && value.trim().length > 0 && value.length <= 64 && !CONTROL.test(value)
    ? ok(value)
    : err(domainError('INVALID_INPUT', 'label must be 1-64 characters without control characters'));
}

function issue(deps: AdminDeps, label: string, tenant: TenantId): ResultAsync<IssuedApiKey, DomainError> {
  const apiKey = randomSecret(API_KEY_PREFIX);
  const record: ApiKeyRecord = {
    id: randomId('key_'),
    label,
    tenant,
    prefix: apiKey.slice(0, SHOWN_CHARACTERS),
    createdAt: deps.clock.now(),
  };
  return deps.store.apiKeys.insert({ ...record, hash: hashSecret(apiKey) }).map(() => ({ record, apiKey }));
}

/**
 * A new key for a tenant (created on first use, without treasury payments; the default tenant has
 * them). Only its hash is kept.
 */
export function createApiKey(
  deps: AdminDeps,
  input: CreateApiKeyRequest,
): ResultAsync<IssuedApiKey, DomainError> {
  return safeTry(async function* () {
    const label = yield* parseLabel(input.label);
    const tenant = yield* input.tenant === undefined
      ? ok(randomId('ten_') as TenantId)
      : parseTenantId(input.tenant);
    yield* deps.store.tenants.ensure(tenant, { treasuryPayments: false }, deps.clock.now());
    return issue(deps, label, tenant);
  });
}

export function listApiKeys(deps: AdminDeps, input: { readonly tenant?: string } = {}) {
  if (input.tenant === undefined) return deps.store.apiKeys.list();
  return parseTenantId(input.tenant).asyncAndThen((tenant) => deps.store.apiKeys.list({ tenant }));
}

const notFound = (id: string) =>
  domainError('API_KEY_NOT_FOUND', `API key ${id.slice(0, 64)} does not exist`);

/** Revokes at once: every server process refuses the key from then on (see the key cache). */
/**
 * Key ids are printable ASCII; anything else (a NUL byte, which PostgreSQL text cannot hold) names
 * no key, and is answered as an unknown id without asking the store.
 */
const KEY_ID = /^[\x21-\x7e]{1,128}$/;

/** One key, without its secret or hash. */
export function getApiKey(
  deps: AdminDeps,
  input: { readonly id: string },
): ResultAsync<ApiKeyRecord, DomainError> {
  if (!KEY_ID.test(input.id)) return errAsync(notFound(input.id));
  return deps.store.apiKeys
    .get(input.id)
    .andThen((record) => (record ? okAsync(record) : errAsync(notFound(input.id))));
}

export function revokeApiKey(deps: AdminDeps, input: { readonly id: string }) {
  if (!KEY_ID.test(input.id)) return errAsync(notFound(input.id));
  return deps.store.apiKeys
    .revoke(input.id, deps.clock.now())
    .andThen((record) => (record ? okAsync(record) : errAsync(notFound(input.id))));
}

/**
 * A new key for the same tenant and label; the old one keeps working for `overlapSeconds` (so
 * deployments can switch without an outage) and then stops.
 */
export function rotateApiKey(
  deps: AdminDeps,
  input: { readonly id: string } & RotateApiKeyRequest,
): ResultAsync<{ issued: IssuedApiKey; previous: ApiKeyRecord }, DomainError> {
  if (!KEY_ID.test(input.id)) return errAsync(notFound(input.id));
  return safeTry(async function* () {
    const overlap = input.overlapSeconds ?? 3600;
    if (!Number.isInteger(overlap) || overlap < 0 || overlap > MAX_OVERLAP_SECONDS) {
      return err(
        domainError(
          'INVALID_INPUT',
          `overlapSeconds must be a whole number from 0 to ${MAX_OVERLAP_SECONDS}`,
        ),
      );
    }
    const old = yield* deps.store.apiKeys.get(input.id);
    if (!old) return err(notFound(input.id));
    const now = deps.clock.now();
    if (!isApiKeyActive(old, now)) {
      return err(domainError('INVALID_STATUS_TRANSITION', `API key ${old.id} is revoked or expired`));
    }
    const issued = yield* issue(deps, old.label, old.tenant);
    const previous = yield* deps.store.apiKeys.expire(old.id, new Date(now.getTime() + overlap * 1000));
    return ok({ issued, previous: previous ?? old });
  });
}
