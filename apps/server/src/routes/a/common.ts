import type { ZodType } from 'zod';
import { ErrorResponse } from '../schemas.js';

export const security = [{ apiKey: [] }];

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorResponse } },
});

export const errorResponses = {
  400: error('Invalid input; the message names the problem'),
  401: error('Missing or invalid API key'),
  409: error('Idempotency-Key reused with a different body, or still in progress'),
  500: error('Server error; safe to retry with the same Idempotency-Key'),
} as const;

export const notFound = { 404: error('Not found') } as const;

export function jsonBody<T extends ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } } as const;
}
