import { z } from '@hono/zod-openapi';
import type { ErrorCode } from '@token-actions/core';
import type { ZodType } from 'zod';
import { KEY_EXAMPLE } from '../docs/components.js';
import { codesOfStatus } from '../http/errors.js';
import { ErrorResponse } from './schemas.js';

/** The OpenAPI pieces every payments route declares: its credential, its error answers, its header. */

/** An API key of a tenant (`Authorization: Bearer <api key>`). */
export const security = [{ apiKey: [] }];

/** Every status interface A can answer with `{message, code}`, what it means, and one real message. */
const STATUS_A = {
  400: ['Invalid input; the message names the field and the rule', 'amount must be a positive decimal'],
  401: ['Missing or invalid API key', 'missing API key: send Authorization: Bearer <api key>'],
  403: [
    'The API key’s tenant may not pay from the project treasury (name a managed account)',
    'this API key’s tenant may not pay from the project treasury; name a managed account as `account`',
  ],
  404: ['Not found', 'escrow esc_4f1c9a2b does not exist'],
  409: [
    'Idempotency-Key reused with a different body, or still in progress; or the escrow is no longer held',
    'Idempotency-Key was already used with a different request body or path',
  ],
  413: [
    'Request body larger than MAX_BODY_BYTES (the connection is closed)',
    'request body exceeds 65536 bytes',
  ],
  415: ['The body is not application/json', 'Content-Type must be application/json'],
  500: [
    'Server error; safe to retry with the same Idempotency-Key',
    'the service could not complete the operation; it is safe to retry with the same Idempotency-Key',
  ],
} as const satisfies Record<number, readonly [string, string]>;

export type StatusA = keyof typeof STATUS_A;

/** Codes only interface B (its tokens, scopes, swaps and webhook) or the admin API answer. */
const NOT_INTERFACE_A = new Set<ErrorCode>([
  'INVALID_TOKEN',
  'INSUFFICIENT_SCOPE',
  'WEBHOOK_SIGNATURE_INVALID',
  'RATE_LIMITED',
  'UNKNOWN_TOKEN_PAIR',
  'INVALID_PARAMETERS',
  'INSUFFICIENT_LIQUIDITY',
  'SWAP_NOT_FOUND',
  'QUOTE_EXPIRED',
  'TRANSACTION_MISMATCH',
  'INVALID_SIGNATURE',
  'AGGREGATOR_NO_ROUTE',
  'AGGREGATOR_UNAVAILABLE',
  'ACCOUNT_NOT_CALLER',
  'RESERVATION_LIMIT',
  'API_KEY_NOT_FOUND',
  'TENANT_NOT_FOUND',
]);

/**
 * The codes an interface A answer of `status` carries: those the one status table maps to it,
 * less the other rooms' own; a refusal of the request's form (no route, body too large, wrong
 * Content-Type) is `INVALID_INPUT`; a server failure shows only `INTERNAL` (errorHandler hides
 * the cause). A code added to core joins its status's list here by itself.
 */
function codesA(status: StatusA): ErrorCode[] {
  if (status === 500) return ['INTERNAL'];
  const codes = codesOfStatus(status).filter((code) => !NOT_INTERFACE_A.has(code));
  return status === 404 || status === 413 || status === 415 ? [...codes, 'INVALID_INPUT'] : codes;
}

const EXAMPLE_CODE: Record<StatusA, ErrorCode> = {
  400: 'INVALID_AMOUNT',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'ESCROW_NOT_FOUND',
  409: 'IDEMPOTENCY_KEY_REUSED',
  413: 'INVALID_INPUT',
  415: 'INVALID_INPUT',
  500: 'INTERNAL',
};

/** One component per status (`ErrorResponse400`, ...): `ErrorResponse` with `code` closed to that status's codes. */
const byStatus = new Map<StatusA, ReturnType<typeof statusSchema>>();
function statusSchema(status: StatusA) {
  const codes = codesA(status);
  return ErrorResponse.extend({ code: z.enum(codes as [ErrorCode, ...ErrorCode[]]) }).openapi(
    `ErrorResponse${status}`,
    {
      description: `Interface A error answered with status ${status}: \`code\` is one of ${codes.join(', ')}`,
    },
  );
}

/**
 * The error answers of an interface A operation, each `{message, code}` with an example, the
 * codes listed per status. Routes list the statuses they can answer, usually through
 * `readErrors`/`writeErrors`; the OpenAPI test checks that every status the service answers on an
 * operation is declared here, and that its body validates (so its code is listed).
 */
export function errorsA<S extends StatusA>(...statuses: S[]): Record<S, ErrorAnswer> {
  const answers = {} as Record<S, ErrorAnswer>;
  for (const status of statuses) {
    const [description, message] = STATUS_A[status];
    let schema = byStatus.get(status);
    if (!schema) {
      schema = statusSchema(status);
      byStatus.set(status, schema);
    }
    answers[status] = {
      description,
      content: { 'application/json': { schema, example: { message, code: EXAMPLE_CODE[status] } } },
    };
  }
  return answers;
}

interface ErrorAnswer {
  description: string;
  content: {
    'application/json': { schema: ZodType; example: { message: string; code: ErrorCode } };
  };
}

/** A GET behind the API key. */
export const readErrors = errorsA(400, 401, 500);
/** A POST with a JSON body: body limit, content type, idempotency. */
export const writeErrors = errorsA(400, 401, 409, 413, 415, 500);
/** A POST declared without a required body: any Content-Type is accepted (see app.ts). */
export const bodylessWriteErrors = errorsA(400, 401, 409, 413, 500);
export const notFound = errorsA(404);
/** A payment that may come from the project treasury, which not every tenant may use. */
export const forbidden = errorsA(403);

/** The header every payments POST accepts: a retry with the same key replays the first answer. */
export const IdempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .optional()
    .openapi({
      param: { name: 'Idempotency-Key', in: 'header' },
      description:
        '1-255 printable ASCII characters. A retry with the same key and body replays the first answer (Idempotent-Replayed: true) and sends nothing twice.',
    }),
});

export function jsonBody<T extends ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } } as const;
}

/** A 200 answer with a JSON body. */
export function ok<T extends ZodType>(description: string, schema: T) {
  return { 200: { description, content: { 'application/json': { schema } } } };
}

/** A path parameter with its description and example. */
export const pathParam = <K extends string>(name: K, description: string, example: string) =>
  z.object({
    [name]: z.string().openapi({ param: { name, in: 'path' }, description, example }),
  } as Record<K, z.ZodString>);

/** The account a path names. */
export const accountParam = pathParam('publicKey', 'The account (base58, 32 bytes)', KEY_EXAMPLE);
