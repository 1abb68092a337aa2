/**
 * register-client: creates an OAuth client and prints its credentials once (the secret is stored
 * only as a hash). Through the running server's `POST /oauth/clients` with the operator token
 * when a server is known and answers; otherwise straight into the database: PostgreSQL when
 * DATABASE_URL is set, else the embedded one under $DATA_DIR (its PostgreSQL server, or PGlite).
 */
import { parseArgs } from 'node:util';
import type { OAuthScope } from '@token-actions/core';
import { composeClientRegistry, parseEnv, StateConfigSchema, SwapConfigSchema } from '@token-actions/runtime';
import { registerClient } from '../oauth/clients.js';
import { errorMessage, readBody, readDevCredentials, SERVER_HELP, serverTarget } from './target.js';

export const REGISTER_CLIENT_USAGE = `Usage: cli.js register-client --name <name> --redirect-uri <url> [--redirect-uri <url> ...]
                       [--public] [--scope "read write"] [--webhook-url <url>] [--url <base url>]

Registers an OAuth 2.0 client for interface B and prints its client_id and client_secret as JSON.
  --public        a public client (no secret; token_endpoint_auth_method "none", PKCE only)
  --scope         the scopes it may request (default: read write)

Through the running server (POST /oauth/clients with the operator token) when it is known and
answers:
${SERVER_HELP}
  token:  ADMIN_TOKEN, else adminToken in $DATA_DIR/dev-credentials.json
Otherwise straight into the database, which needs no token: DATABASE_URL (PostgreSQL) when set,
else the embedded one under $DATA_DIR (a PostgreSQL server in $DATA_DIR/postgres, or PGlite in
$DATA_DIR/pglite; EMBEDDED_DATABASE picks), which only a stopped server leaves free.`;

const USAGE = REGISTER_CLIENT_USAGE;

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const name = args.values.name;
  const redirectUris = args.values['redirect-uri'] ?? [];
  if (!name || redirectUris.length === 0) {
    process.stderr.write(`--name and at least one --redirect-uri are required\n\n${USAGE}\n`);
    return 2;
  }
  const scopes = args.values.scope?.split(/[\s,]+/).filter(Boolean) as OAuthScope[] | undefined;

  const { baseUrl, adminToken } = serverTarget(args.values.url, env, await readDevCredentials(env));
  if (baseUrl && adminToken) {
    const metadata = {
      client_name: name,
      redirect_uris: redirectUris,
      token_endpoint_auth_method: args.values.public ? 'none' : 'client_secret_basic',
      ...(scopes ? { scope: scopes.join(' ') } : {}),
      ...(args.values['webhook-url'] ? { webhook_url: args.values['webhook-url'] } : {}),
    };
    const answered = await throughServer(baseUrl, adminToken, metadata);
    if (answered !== undefined) return answered;
    process.stderr.write(`no server answers at ${baseUrl}: registering in the database directly\n`);
  }

  let config: ReturnType<typeof parseStateConfig>;
  try {
    config = parseStateConfig(env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const registry = await composeClientRegistry(config);
  try {
    const registered = await registerClient(registry, {
      name,
      redirectUris,
      type: args.values.public ? 'public' : 'confidential',
      ...(scopes ? { scopes } : {}),
      ...(args.values['webhook-url'] ? { webhookUrl: args.values['webhook-url'] } : {}),
    });
    if (registered.isErr()) {
      process.stderr.write(`register-client: ${registered.error.message}\n`);
      return registered.error.code === 'INVALID_INPUT' ? 2 : 1;
    }
    const { client, clientSecret } = registered.value;
    const output = {
      client_id: client.id,
      ...(clientSecret ? { client_secret: clientSecret } : {}),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: clientSecret ? 'client_secret_basic' : 'none',
      scope: client.scopes.join(' '),
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    if (clientSecret)
      process.stderr.write('Store the client_secret now: it is not kept and cannot be shown again.\n');
    return 0;
  } finally {
    await registry.close();
  }
}

/**
 * POST /oauth/clients on the running server, which holds the database: the exit code, or
 * undefined when no server answers (the caller then writes to the database itself).
 */
async function throughServer(
  baseUrl: string,
  adminToken: string,
  metadata: Record<string, unknown>,
): Promise<number | undefined> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}/oauth/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(metadata),
    });
  } catch {
    return undefined;
  }
  const body = await readBody(res);
  if (res.status !== 201) {
    process.stderr.write(`register-client: ${res.status}: ${errorMessage(body)}\n`);
    return res.status === 400 ? 2 : 1;
  }
  process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  if (typeof (body as { client_secret?: unknown }).client_secret === 'string')
    process.stderr.write('Store the client_secret now: it is not kept and cannot be shown again.\n');
  return 0;
}

/** The database's location and the webhook URL rule: the CLI needs no chain, keys or HTTP settings. */
const CliConfigSchema = StateConfigSchema.pick({ DATA_DIR: true, DATABASE_URL: true }).extend(
  SwapConfigSchema.pick({ WEBHOOK_ALLOW_PRIVATE: true }).shape,
);

function parseStateConfig(env: NodeJS.ProcessEnv) {
  return parseEnv(CliConfigSchema, env);
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      public: { type: 'boolean' },
      scope: { type: 'string' },
      'webhook-url': { type: 'string' },
      url: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}
