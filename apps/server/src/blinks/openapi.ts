import { z } from '@hono/zod-openapi';
import { ACTION_VERSION, type ActionDescriptor } from '@token-actions/core';

/**
 * The Solana Actions' shapes in the OpenAPI document. They are fixed by the Actions spec (and the
 * `@solana/actions` types), not by this service, so the routes are plain Hono routes, each
 * declared beside its handler with these; the OpenAPI test validates every answer of a walk over
 * every action against the declarations, as it does for the OAuth endpoints.
 */
const InputParameter = z
  .object({
    type: z.enum(['number', 'text', 'url']),
    name: z.string(),
    label: z.string(),
    required: z.boolean(),
    pattern: z.string().optional(),
    patternDescription: z.string().optional(),
    min: z.number().optional(),
  })
  .openapi('ActionInputParameter', { description: 'A typed input (spec "Action Parameters")' });

const SelectParameter = z
  .object({
    type: z.enum(['select']),
    name: z.string(),
    label: z.string(),
    required: z.boolean(),
    options: z.array(z.object({ label: z.string(), value: z.string(), selected: z.boolean().optional() })),
  })
  .openapi('ActionSelectParameter', { description: 'A choice among options (spec "Action Parameters")' });

const LinkedAction = z
  .object({
    type: z.enum(['transaction']),
    href: z.string().openapi({
      description: 'Where to POST; `{name}` placeholders are filled with the parameters',
      example: '/v1/actions/donate/sol?amount={amount}&priority={priority}',
    }),
    label: z.string(),
    parameters: z.array(z.union([InputParameter, SelectParameter])).optional(),
  })
  .openapi('LinkedAction');

export const ActionMetadata = z
  .object({
    type: z.enum(['action']),
    icon: z.string().openapi({ description: 'Absolute URL of the icon (SVG)' }),
    title: z.string(),
    description: z.string(),
    label: z.string(),
    links: z.object({ actions: z.array(LinkedAction) }),
  })
  .openapi('ActionMetadata', { description: 'The GET answer of an action (spec "GET Response")' });

export const ActionPostRequest = z
  .object({
    account: z.string().openapi({
      description: 'The wallet that signs and pays (base58 public key)',
      example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
    }),
  })
  .openapi('ActionPostRequest');

export const ActionTransaction = z
  .object({
    type: z.enum(['transaction']),
    transaction: z.string().openapi({ description: 'Base64 wire transaction for the wallet to sign' }),
    message: z.string().optional(),
  })
  .openapi('ActionTransaction', { description: 'The POST answer (spec "POST Response")' });

export const ActionsJson = z
  .object({
    rules: z.array(
      z.object({
        pathPattern: z.string().openapi({ example: '/v1/actions/**' }),
        apiPath: z.string().openapi({ example: '/v1/actions/**' }),
      }),
    ),
  })
  .openapi('ActionsJson', { description: 'The actions.json rules (spec "actions.json")' });

export const ActionError = z
  .object({ message: z.string() })
  .openapi('ActionError', { description: 'An action error (spec "Action Errors")' });

const text = { type: 'string' as const };
/** Every action answer, errors and preflights included, carries these (spec "OPTIONS response"). */
export const ACTION_HEADERS = {
  'Access-Control-Allow-Origin': { description: 'Any origin: `*`', schema: text },
  'X-Action-Version': { description: `The Actions spec version: ${ACTION_VERSION}`, schema: text },
  'X-Blockchain-Ids': { description: 'CAIP-2 id of the chain, e.g. solana:<genesis hash>', schema: text },
};

export const answer = (description: string, schema: z.ZodType) => ({
  description,
  headers: ACTION_HEADERS,
  content: { 'application/json': { schema } },
});

export const POST_ERRORS = {
  400: answer('The account, a parameter or the body is invalid, or the wallet cannot pay', ActionError),
  403: answer('The project does not offer this action to the public', ActionError),
  404: answer('No such action, or an unknown escrow or merchant', ActionError),
  409: answer('The operation conflicts with the state of what it names', ActionError),
  413: answer('Body larger than 8 KiB', ActionError),
  422: answer('The parameters are valid but cannot be honoured', ActionError),
  429: answer('Too many action requests from this address (Retry-After)', ActionError),
  500: answer('The service could not prepare the transaction', ActionError),
  503: answer('The chain is unavailable', ActionError),
};

export const tags = ['Solana Actions'];

/** The query of an action's GET and POST: its parameters, each optional (a given one is fixed). */
export function actionQuery(descriptor: ActionDescriptor) {
  return z.object(
    Object.fromEntries(
      descriptor.parameters.map((parameter) => [
        parameter.name,
        z
          .string()
          .optional()
          .openapi({ param: { name: parameter.name, in: 'query' }, description: parameter.label }),
      ]),
    ),
  );
}
