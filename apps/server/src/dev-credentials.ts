import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiKeyStore } from '@token-actions/core';
import { generateApiKey, hashApiKey } from './http/auth.js';

export const DEV_CREDENTIALS_FILE = 'dev-credentials.json';

export interface DevCredentials {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly rpcUrl: string;
  readonly oauth?: { readonly clientId: string; readonly clientSecret: string; readonly redirectUri: string };
}

async function readPrevious(path: string): Promise<Partial<DevCredentials> | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Partial<DevCredentials>;
  } catch {
    return undefined;
  }
}

/**
 * The development API key: the one from the previous run when the store still knows it (so a
 * restart does not invalidate scripts), otherwise a new one. Only its hash is stored.
 */
export async function ensureDevApiKey(dataDir: string, apiKeys: ApiKeyStore): Promise<string> {
  const previous = await readPrevious(join(dataDir, DEV_CREDENTIALS_FILE));
  if (typeof previous?.apiKey === 'string') {
    const found = await apiKeys.findByHash(await hashApiKey(previous.apiKey));
    if (found.isOk() && found.value) return previous.apiKey;
  }
  const apiKey = generateApiKey();
  const inserted = await apiKeys.insert({
    id: `key_${crypto.randomUUID()}`,
    label: 'development',
    hash: await hashApiKey(apiKey),
    createdAt: new Date(),
  });
  if (inserted.isErr()) throw new Error(`could not store the development API key: ${inserted.error.message}`);
  return apiKey;
}

export async function writeDevCredentials(dataDir: string, credentials: DevCredentials): Promise<string> {
  const path = join(dataDir, DEV_CREDENTIALS_FILE);
  await writeFile(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return path;
}
