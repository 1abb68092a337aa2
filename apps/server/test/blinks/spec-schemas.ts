import type { ActionGetResponse, ActionPostResponse, ActionsJson, LinkedAction } from '@solana/actions';
import { z } from 'zod';

type TypedActionParameter = NonNullable<LinkedAction['parameters']>[number];
type TransactionResponse = Extract<ActionPostResponse, { type: 'transaction' }>;

/**
 * Runtime schemas of the Actions spec's shapes (spec v2.4), strict so a stray field fails. The
 * type assertions at the bottom tie each to its `@solana/actions` type: a schema that accepted
 * something the type does not would fail to compile.
 */

/** One schema per input type, as the spec's conditional parameter type distributes over them. */
const inputParameter = <T extends 'text' | 'email' | 'url' | 'number' | 'textarea'>(type: T) =>
  z.strictObject({
    type: z.literal(type),
    name: z.string().min(1),
    label: z.string().optional(),
    required: z.boolean().optional(),
    pattern: z.string().optional(),
    patternDescription: z.string().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
  });

const SelectParameter = z.strictObject({
  type: z.literal('select'),
  name: z.string().min(1),
  label: z.string().optional(),
  required: z.boolean().optional(),
  patternDescription: z.string().optional(),
  options: z
    .array(z.strictObject({ label: z.string(), value: z.string(), selected: z.boolean().optional() }))
    .min(1),
});

export const ActionParameterSchema = z.union([
  inputParameter('text'),
  inputParameter('email'),
  inputParameter('url'),
  inputParameter('number'),
  inputParameter('textarea'),
  SelectParameter,
]);

export const LinkedActionSchema = z.strictObject({
  type: z.literal('transaction'),
  href: z.string().min(1),
  label: z.string().min(1),
  parameters: z.array(ActionParameterSchema).optional(),
});

export const ActionGetResponseSchema = z.strictObject({
  type: z.literal('action').optional(),
  icon: z.url(),
  title: z.string().min(1),
  description: z.string().min(1),
  label: z.string().min(1),
  disabled: z.boolean().optional(),
  links: z.strictObject({ actions: z.array(LinkedActionSchema).min(1) }).optional(),
});

export const TransactionResponseSchema = z.strictObject({
  type: z.literal('transaction'),
  transaction: z.base64(),
  message: z.string().optional(),
});

export const ActionsJsonSchema = z.strictObject({
  rules: z.array(z.strictObject({ pathPattern: z.string().min(1), apiPath: z.string().min(1) })).min(1),
});

export const ActionErrorSchema = z.strictObject({ message: z.string().min(1) });

/** Compiles only when every schema's output is assignable to its `@solana/actions` type. */
type Extends<A, B> = [A] extends [B] ? true : false;
export const TYPE_CHECKS: [
  Extends<z.infer<typeof ActionParameterSchema>, TypedActionParameter>,
  Extends<z.infer<typeof ActionGetResponseSchema>, ActionGetResponse>,
  Extends<z.infer<typeof TransactionResponseSchema>, TransactionResponse>,
  Extends<z.infer<typeof TransactionResponseSchema>, ActionPostResponse>,
  Extends<z.infer<typeof ActionsJsonSchema>, ActionsJson>,
] = [true, true, true, true, true];
