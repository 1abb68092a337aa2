/**
 * The operator's CLI over the admin API: `api-keys create|list|revoke|rotate` and
 * `tenants list|get|set`. It talks to the running server over HTTP (the embedded database belongs
 * to the server process while it runs), with the operator token from ADMIN_TOKEN or, on a
 * localnet, from $DATA_DIR/dev-credentials.json.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

export const ADMIN_USAGE = `Usage: cli.js api-keys create --label <label> [--tenant <tenant>]
       cli.js api-keys list [--tenant <tenant>]
       cli.js api-keys revoke <key id>
       cli.js api-keys rotate <key id> [--overlap-seconds <seconds>]
       cli.js tenants list
       cli.js tenants get <tenant>
       cli.js tenants set <tenant> --treasury-payments <true|false>

Calls the admin API of a running server and prints its JSON answer.
  server: --url <base url>, else TOKEN_ACTIONS_URL, else baseUrl in $DATA_DIR/dev-credentials.json
  token:  ADMIN_TOKEN, else adminToken in $DATA_DIR/dev-credentials.json (DATA_DIR default .data);
          never a flag, so it does not show in the process list.`;

interface Io {
  out(text: string): void;
  err(text: string): void;
}

const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

class UsageError extends Error {}

interface Call {
  readonly method: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  readonly path: string;
  readonly body?: unknown;
}

/** The admin API request a command line stands for. */
function toCall(argv: readonly string[]): Call {
  const [group, verb, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      label: { type: 'string' },
      tenant: { type: 'string' },
      'overlap-seconds': { type: 'string' },
      'treasury-payments': { type: 'string' },
      url: { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  const id = () => {
    if (positionals.length !== 1) throw new UsageError(`${group} ${verb} takes exactly one id`);
    return encodeURIComponent(positionals[0]!);
  };
  const key = `${group} ${verb}`;
  switch (key) {
    case 'api-keys create':
      if (!values.label) throw new UsageError('--label is required');
      return {
        method: 'POST',
        path: '/v1/admin/api-keys',
        body: { label: values.label, ...(values.tenant ? { tenant: values.tenant } : {}) },
      };
    case 'api-keys list':
      return {
        method: 'GET',
        path: `/v1/admin/api-keys${values.tenant ? `?tenant=${encodeURIComponent(values.tenant)}` : ''}`,
      };
    case 'api-keys revoke':
      return { method: 'DELETE', path: `/v1/admin/api-keys/${id()}` };
    case 'api-keys rotate': {
      const overlap = values['overlap-seconds'];
      if (overlap !== undefined && !/^\d+$/.test(overlap)) {
        throw new UsageError('--overlap-seconds must be a whole number');
      }
      return {
        method: 'POST',
        path: `/v1/admin/api-keys/${id()}/rotate`,
        body: overlap === undefined ? {} : { overlapSeconds: Number(overlap) },
      };
    }
    case 'tenants list':
      return { method: 'GET', path: '/v1/admin/tenants' };
    case 'tenants get':
      return { method: 'GET', path: `/v1/admin/tenants/${id()}` };
    case 'tenants set': {
      const flag = values['treasury-payments'];
      if (flag !== 'true' && flag !== 'false')
        throw new UsageError('--treasury-payments must be true or false');
      return {
        method: 'PATCH',
        path: `/v1/admin/tenants/${id()}`,
        body: { treasuryPayments: flag === 'true' },
      };
    }
    default:
      throw new UsageError(`unknown command "${key}"`);
  }
}

async function devCredentials(env: NodeJS.ProcessEnv): Promise<{ baseUrl?: string; adminToken?: string }> {
  try {
    const path = join(env.DATA_DIR || '.data', 'dev-credentials.json');
    const parsed = JSON.parse(await readFile(path, 'utf8')) as { baseUrl?: unknown; adminToken?: unknown };
    return {
      ...(typeof parsed.baseUrl === 'string' ? { baseUrl: parsed.baseUrl } : {}),
      ...(typeof parsed.adminToken === 'string' ? { adminToken: parsed.adminToken } : {}),
    };
  } catch {
    return {};
  }
}

/** Runs one admin command; resolves to the exit code (0 done, 1 refused or unreachable, 2 usage). */
export async function adminMain(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = processIo,
  fetchImpl: typeof fetch = fetch,
): Promise<number> {
  let call: Call;
  let url: string | undefined;
  try {
    call = toCall(argv);
    url = parseArgs({ args: [...argv], options: { url: { type: 'string' } }, strict: false }).values.url as
      | string
      | undefined;
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${ADMIN_USAGE}\n`);
    return 2;
  }
  const file = await devCredentials(env);
  const baseUrl = (url ?? env.TOKEN_ACTIONS_URL ?? file.baseUrl)?.replace(/\/+$/, '');
  const token = env.ADMIN_TOKEN || env.OAUTH_ADMIN_TOKEN || file.adminToken;
  if (!baseUrl || !token) {
    io.err(
      `${!baseUrl ? 'no server URL' : 'no admin token'}: set ${!baseUrl ? '--url or TOKEN_ACTIONS_URL' : 'ADMIN_TOKEN'}, or DATA_DIR to a localnet's data directory\n`,
    );
    return 2;
  }
  let res: Response;
  try {
    res = await fetchImpl(`${baseUrl}${call.path}`, {
      method: call.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    });
  } catch (error) {
    io.err(`cannot reach ${baseUrl}: ${(error as Error).message}\n`);
    return 1;
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: printed as it came
  }
  if (!res.ok) {
    const message = (body as { message?: unknown })?.message;
    io.err(`${res.status}: ${typeof message === 'string' ? message : text}\n`);
    return 1;
  }
  io.out(`${JSON.stringify(body, null, 2)}\n`);
  if (call.method === 'POST' && typeof (body as { apiKey?: unknown })?.apiKey === 'string') {
    io.err('Store the apiKey now: it is not kept and cannot be shown again.\n');
  }
  return 0;
}
