/**
 * register-client: creates an OAuth client and prints its credentials once (the secret is stored
 * only as a hash). Writes to PostgreSQL when DATABASE_URL is set, otherwise to the embedded
 * database under $DATA_DIR (default .data): its PostgreSQL server, or PGlite (EMBEDDED_DATABASE).
 */
import { parseArgs } from 'node:util';
import type { OAuthScope } from '@token-actions/core';
import { composeClientRegistry, parseEnv, StateConfigSchema, SwapConfigSchema } from '@token-actions/runtime';
import { registerClient } from '../oauth/clients.js';

const USAGE = `Usage: register-client --name <name> --redirect-uri <url> [--redirect-uri <url> ...]
                       [--public] [--scope "read write"] [--webhook-url <url>]

Registers an OAuth 2.0 client for interface B and prints its client_id and client_secret as JSON.
  --public        a public client (no secret; token_endpoint_auth_method "none", PKCE only)
  --scope         the scopes it may request (default: read write)

Database: DATABASE_URL (PostgreSQL) when set, else the embedded one under $DATA_DIR: a PostgreSQL
server in $DATA_DIR/postgres, or PGlite in $DATA_DIR/pglite (EMBEDDED_DATABASE picks; see README).
The embedded database belongs to one process at a time: stop the server first, or register
through POST /oauth/clients with the admin token (ADMIN_TOKEN) instead.`;

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
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}
