import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Currencies } from '@token-actions/core';
import type { UndocumentedRoute } from './route-table.js';

export const openApiDocumentRoute = {
  method: 'get',
  path: '/v1/openapi.json',
  operationId: 'getOpenApiDocument',
  'x-use-case': 'buildDocument',
  security: [],
} as const satisfies UndocumentedRoute;

export interface DocumentOptions {
  readonly version: string;
  /** The configured tickers: they close the `Currency` and `TokenPair` sets. */
  readonly currencies: Currencies;
}

type Document = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

const DESCRIPTION = `Solana payments: NFT minting, donations, charity donations, merchant payments and escrow
(interface A); swaps, their quotes and completion webhooks (interface B); and the OAuth 2.0
authorization server interface B relies on.

**Interface A** (\`/v1/api/…\`) takes an API key: \`Authorization: Bearer <api key>\` (security
scheme \`apiKey\`). On the embedded default the dev key is printed at start-up and written to
\`$DATA_DIR/dev-credentials.json\`. Every POST accepts an \`Idempotency-Key\`. Errors are \`{message, code}\`:
\`code\` is a stable code from the same set as interface B's (\`ErrorCode\`); each operation lists the
codes of each of its error statuses.

**Interface B** (\`/v1/project\`, \`/v1/aggregator\`, \`/v1/swap\`, \`/v1/webhooks\`) takes an OAuth 2.0
access token (security scheme \`oauth2\`: authorization code with PKCE at \`/oauth/authorize\` and
\`/oauth/token\`; on the localnet, \`node apps/server/dist/cli.js oauth login\` prints one, and this
page's Authorize signs in with a development wallet for the demo client of \`dev-credentials.json\`). Every answer carries \`rateLimit\`; errors are \`{code, message, rateLimit}\` with a
stable \`code\`. When a swap finishes, the client's \`webhook_url\` receives a signed \`swap.*\` event
(see Webhooks); a tenant's endpoints registered at \`/v1/api/webhooks\` receive a signed
\`transaction.*\` event whenever one of its transactions changes status.

Amounts are decimal strings: whole units in requests, base units (with a \`…Decimal\` twin where
noted) in answers.`;

const TAGS = [
  { name: 'NFT', description: 'Token-2022 NFTs with on-chain metadata' },
  { name: 'Donation', description: 'Donations to the project treasury, one route per currency' },
  { name: 'Charity', description: 'Donations to a charity, optionally held in escrow' },
  { name: 'Merchant', description: 'Payments to a merchant, optionally held in escrow' },
  { name: 'Transaction', description: 'Preview, sign and track any transaction' },
  { name: 'Account', description: 'Managed accounts and balances' },
  { name: 'Escrow', description: 'Funds held until released to the beneficiary or refunded' },
  { name: 'Swap', description: "Interface B: the project's pools and the aggregator" },
  { name: 'Webhook', description: 'Interface B: completion notifications in, signed swap events out' },
  {
    name: 'Webhook endpoint',
    description:
      "Interface A: a tenant's endpoints, which receive its transactions' signed transaction.* events",
  },
  {
    name: 'OAuth',
    description: 'The OAuth 2.0 authorization server (RFC 6749, 7009, 7591, 7636, 7662, 8414)',
  },
];

/**
 * Serves the OpenAPI 3.1 document generated from the route declarations. The sets that are
 * configuration rather than code (the tickers, hence the pairs) are closed here, once the
 * service knows them; the document is built on first request, after every router is mounted.
 */
export function registerOpenApiDocument(app: OpenAPIHono, options: DocumentOptions): void {
  let body: string | undefined;
  app.get('/v1/openapi.json', (c) => {
    body ??= JSON.stringify(buildDocument(app, options));
    return c.body(body, 200, { 'content-type': 'application/json' });
  });
}

export function buildDocument(app: OpenAPIHono, options: DocumentOptions): Document {
  const doc = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: { title: 'Token Actions', version: options.version, description: DESCRIPTION },
    servers: [{ url: '/', description: 'This server' }],
    tags: TAGS,
  });
  const codes = options.currencies.codes();
  const pairs = codes.flatMap((a) => codes.filter((b) => b !== a).map((b) => `${a}-${b}`));
  closeSet(doc, 'Currency', codes);
  closeSet(doc, 'TokenPair', pairs);
  return { ...doc, ...(doc.webhooks ? { webhooks: eventNames(doc.webhooks) } : {}) };
}

/** The generator keys webhooks like paths ("/swap.landed"); an event is named by its type. */
function eventNames<T>(webhooks: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(webhooks).map(([name, item]) => [name.replace(/^\//, ''), item]));
}

function closeSet(doc: Document, name: string, values: readonly string[]): void {
  const schema = doc.components?.schemas?.[name];
  if (schema && !('$ref' in schema)) schema.enum = [...values];
}
