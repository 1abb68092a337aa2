/**
 * Where the CLI's commands find the running server and their credentials: `--url`, else
 * TOKEN_ACTIONS_URL, else `baseUrl` in $DATA_DIR/dev-credentials.json (DATA_DIR default .data);
 * the operator token from ADMIN_TOKEN (or its old name), else `adminToken` in that file. Secrets
 * are never flags, so they do not show in the process list.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEV_CREDENTIALS_FILE, type DevCredentials } from '../dev-credentials.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

export class UsageError extends Error {}

export const SERVER_HELP = `  server: --url <base url>, else TOKEN_ACTIONS_URL, else baseUrl in $DATA_DIR/dev-credentials.json
          (DATA_DIR default .data)`;

/** What a localnet's start-up wrote, as far as it reads; empty when there is no such file. */
export async function readDevCredentials(env: NodeJS.ProcessEnv): Promise<Partial<DevCredentials>> {
  try {
    const path = join(env.DATA_DIR || '.data', DEV_CREDENTIALS_FILE);
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    const oauth = parsed.oauth as Record<string, unknown> | undefined;
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const clientId = text(oauth?.clientId);
    const clientSecret = text(oauth?.clientSecret);
    const redirectUri = text(oauth?.redirectUri);
    const baseUrl = text(parsed.baseUrl);
    const adminToken = text(parsed.adminToken);
    return {
      ...(baseUrl ? { baseUrl } : {}),
      ...(adminToken ? { adminToken } : {}),
      ...(clientId && clientSecret && redirectUri ? { oauth: { clientId, clientSecret, redirectUri } } : {}),
    };
  } catch {
    return {};
  }
}

/** The server's base URL (without a trailing slash) and the operator token, when known. */
export function serverTarget(
  url: string | undefined,
  env: NodeJS.ProcessEnv,
  file: Partial<DevCredentials>,
): { baseUrl?: string; adminToken?: string } {
  const baseUrl = (url ?? env.TOKEN_ACTIONS_URL ?? file.baseUrl)?.replace(/\/+$/, '');
  const adminToken = env.ADMIN_TOKEN || env.OAUTH_ADMIN_TOKEN || file.adminToken;
  return { ...(baseUrl ? { baseUrl } : {}), ...(adminToken ? { adminToken } : {}) };
}

/** Whether the command line asks for help (`--help` or `-h` anywhere). */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

/** A body read as JSON when it is, else as the text it is. */
export async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The sentence of an error answer of any of the service's shapes. */
export function errorMessage(body: unknown): string {
  if (typeof body === 'string') return body;
  const fields = (body ?? {}) as Record<string, unknown>;
  const message = fields.message ?? fields.error_description ?? fields.error;
  return typeof message === 'string' ? message : JSON.stringify(body);
}
