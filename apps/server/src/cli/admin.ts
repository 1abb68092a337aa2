/**
 * The operator's CLI over the admin API: `api-keys create|list|revoke|rotate` and
 * `tenants list|get|set`. It talks to the running server over HTTP (the embedded database belongs
 * to the server process while it runs), with the operator token from ADMIN_TOKEN or, on a
 * localnet, from $DATA_DIR/dev-credentials.json.
 */
import { parseArgs } from 'node:util';
import {
  errorMessage,
  type Io,
  processIo,
  readBody,
  readDevCredentials,
  SERVER_HELP,
  serverTarget,
  UsageError,
  wantsHelp,
} from './target.js';

const COMMANDS = {
  'api-keys': [
    'cli.js api-keys create --label <label> [--tenant <tenant>]',
    'cli.js api-keys list [--tenant <tenant>]',
    'cli.js api-keys revoke <key id>',
    'cli.js api-keys rotate <key id> [--overlap-seconds <seconds>]',
  ],
  tenants: [
    'cli.js tenants list',
    'cli.js tenants get <tenant>',
    'cli.js tenants set <tenant> --treasury-payments <true|false>',
  ],
} as const;

export type AdminGroup = keyof typeof COMMANDS;

export function isAdminGroup(word: string | undefined): word is AdminGroup {
  return word === 'api-keys' || word === 'tenants';
}

/** The usage of one group of admin commands, or of both. */
export function adminUsage(group?: AdminGroup): string {
  const lines = group ? COMMANDS[group] : [...COMMANDS['api-keys'], ...COMMANDS.tenants];
  return `Usage: ${lines.join('\n       ')}

Calls the admin API of a running server and prints its JSON answer.
${SERVER_HELP}
  token:  ADMIN_TOKEN, else adminToken in $DATA_DIR/dev-credentials.json; never a flag, so it
          does not show in the process list.`;
}

export const ADMIN_USAGE = adminUsage();

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
      throw new UsageError(verb === undefined ? `${group} needs a command` : `unknown command "${key}"`);
  }
}

/** Runs one admin command; resolves to the exit code (0 done, 1 refused or unreachable, 2 usage). */
export async function adminMain(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = processIo,
  fetchImpl: typeof fetch = fetch,
): Promise<number> {
  const group = isAdminGroup(argv[0]) ? argv[0] : undefined;
  if (wantsHelp(argv)) {
    io.out(`${adminUsage(group)}\n`);
    return 0;
  }
  let call: Call;
  let url: string | undefined;
  try {
    call = toCall(argv);
    url = parseArgs({ args: [...argv], options: { url: { type: 'string' } }, strict: false }).values.url as
      | string
      | undefined;
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${adminUsage(group)}\n`);
    return 2;
  }
  const { baseUrl, adminToken: token } = serverTarget(url, env, await readDevCredentials(env));
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
  const body = await readBody(res);
  if (!res.ok) {
    io.err(`${res.status}: ${errorMessage(body)}\n`);
    return 1;
  }
  io.out(`${JSON.stringify(body, null, 2)}\n`);
  if (call.method === 'POST' && typeof (body as { apiKey?: unknown })?.apiKey === 'string') {
    io.err('Store the apiKey now: it is not kept and cannot be shown again.\n');
  }
  return 0;
}
