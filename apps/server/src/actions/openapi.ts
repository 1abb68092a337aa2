import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { ACTION_VERSION, type ActionDescriptor } from '@token-actions/core';

/**
 * The Solana Actions in the OpenAPI document. Their shapes are fixed by the Actions spec (and the
 * `@solana/actions` types), not by this service, so the routes are a plain Hono app and declared
 * here for the reader; the OpenAPI test validates every answer of a walk over every action
 * against these declarations, as it does for the OAuth endpoints.
 */
type Registry = OpenAPIHono['openAPIRegistry'];

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

const ActionMetadata = z
  .object({
    type: z.enum(['action']),
    icon: z.string().openapi({ description: 'Absolute URL of the icon (SVG)' }),
    title: z.string(),
    description: z.string(),
    label: z.string(),
    links: z.object({ actions: z.array(LinkedAction) }),
  })
  .openapi('ActionMetadata', { description: 'The GET answer of an action (spec "GET Response")' });

const ActionPostRequest = z
  .object({
    account: z.string().openapi({
      description: 'The wallet that signs and pays (base58 public key)',
      example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
    }),
  })
  .openapi('ActionPostRequest');

const ActionTransaction = z
  .object({
    type: z.enum(['transaction']),
    transaction: z.string().openapi({ description: 'Base64 wire transaction for the wallet to sign' }),
    message: z.string().optional(),
  })
  .openapi('ActionTransaction', { description: 'The POST answer (spec "POST Response")' });

const ActionsJson = z
  .object({
    rules: z.array(
      z.object({
        pathPattern: z.string().openapi({ example: '/v1/actions/**' }),
        apiPath: z.string().openapi({ example: '/v1/actions/**' }),
      }),
    ),
  })
  .openapi('ActionsJson', { description: 'The actions.json rules (spec "actions.json")' });

const ActionError = z
  .object({ message: z.string() })
  .openapi('ActionError', { description: 'An action error (spec "Action Errors")' });

const text = { type: 'string' as const };
/** Every action answer, errors and preflights included, carries these (spec "OPTIONS response"). */
const ACTION_HEADERS = {
  'Access-Control-Allow-Origin': { description: 'Any origin: `*`', schema: text },
  'X-Action-Version': { description: `The Actions spec version: ${ACTION_VERSION}`, schema: text },
  'X-Blockchain-Ids': { description: 'CAIP-2 id of the chain, e.g. solana:<genesis hash>', schema: text },
};

const answer = (description: string, schema: z.ZodType) => ({
  description,
  headers: ACTION_HEADERS,
  content: { 'application/json': { schema } },
});

const POST_ERRORS = {
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

const tags = ['Solana Actions'];

/** `donate/sol` -> `DonateSol`, for operationIds. */
function pascal(path: string): string {
  return path
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** Declares actions.json, the icon and every action of the catalog (GET metadata, POST). */
export function registerActionsDocs(
  registry: Registry,
  catalog: readonly ActionDescriptor[],
  prefix: string,
): void {
  for (const [path, operationId] of [
    ['/actions.json', 'getActionsJson'],
    ['/.well-known/actions.json', 'getWellKnownActionsJson'],
  ] as const) {
    registry.registerPath({
      method: 'get',
      path,
      operationId,
      tags,
      security: [],
      summary: 'The actions.json rules: which paths of this origin are actions',
      responses: { 200: answer('Rules', ActionsJson), 503: answer('The chain is unavailable', ActionError) },
    });
  }
  registry.registerPath({
    method: 'get',
    path: `${prefix}/icon.svg`,
    operationId: 'getActionIcon',
    tags,
    security: [],
    summary: 'The icon the actions show',
    responses: {
      200: {
        description: 'SVG',
        headers: ACTION_HEADERS,
        content: { 'image/svg+xml': { schema: z.string() } },
      },
      503: answer('The chain is unavailable', ActionError),
    },
  });

  for (const descriptor of catalog) {
    const path = `${prefix}/${descriptor.path}`;
    const query = z.object(
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
    registry.registerPath({
      method: 'get',
      path,
      operationId: `getAction${pascal(descriptor.path)}`,
      tags,
      security: [],
      summary: `${descriptor.title}: the action's metadata`,
      description: `${descriptor.description} Parameters given in the query string are fixed and left out of the form.`,
      request: { query },
      responses: {
        200: answer('Metadata', ActionMetadata),
        503: answer('The chain is unavailable', ActionError),
      },
    });
    registry.registerPath({
      method: 'post',
      path,
      operationId: `postAction${pascal(descriptor.path)}`,
      tags,
      security: [],
      summary: `${descriptor.title}: a transaction for the wallet to sign`,
      request: {
        query,
        body: { required: true, content: { 'application/json': { schema: ActionPostRequest } } },
      },
      responses: { 200: answer('The transaction', ActionTransaction), ...POST_ERRORS },
    });
  }
}
