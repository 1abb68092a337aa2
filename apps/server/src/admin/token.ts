import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerConfig } from '../config.js';

export const ADMIN_TOKEN_FILE = 'admin-token';

/**
 * The operator token: ADMIN_TOKEN (or its old name OAUTH_ADMIN_TOKEN); on a localnet without one,
 * a random token kept in DATA_DIR/admin-token (0600) so it survives restarts. Elsewhere without
 * one, the admin API and client registration are off.
 */
export async function resolveAdminToken(
  config: Pick<ServerConfig, 'ADMIN_TOKEN' | 'OAUTH_ADMIN_TOKEN' | 'DATA_DIR'>,
  isLocalnet: boolean,
): Promise<string | undefined> {
  const configured = config.ADMIN_TOKEN ?? config.OAUTH_ADMIN_TOKEN;
  if (configured || !isLocalnet) return configured;
  const path = join(config.DATA_DIR, ADMIN_TOKEN_FILE);
  try {
    const stored = (await readFile(path, 'utf8')).trim();
    if (stored.length >= 32) return stored;
  } catch {
    // first start: generate below
  }
  const token = `taadm_${randomBytes(32).toString('base64url')}`;
  await writeFile(path, `${token}\n`, { mode: 0o600 });
  return token;
}
