import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AdminDeps,
  createApiKey,
  DEFAULT_TENANT,
  hashSecret,
  isApiKeyActive,
} from '@token-actions/core';

export const DEV_CREDENTIALS_FILE = 'dev-credentials.json';

export interface DevCredentials {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** The operator token of the admin API (`Authorization: Bearer <adminToken>`). */
  readonly adminToken?: string;
  readonly rpcUrl: string;
  /** The chain's PubSub websocket (a localnet's: its RPC port + 1). */
  readonly wsUrl?: string;
  /** The localnet's token mints by ticker: `{"USDC": "…", "<project ticker>": "…"}`. */
  readonly mints?: Readonly<Record<string, string>>;
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
 * The development API key of the default tenant: the one from the previous run while it still
 * works (so a restart does not invalidate scripts), otherwise a new one. Only its hash is stored.
 */
export async function ensureDevApiKey(dataDir: string, deps: AdminDeps): Promise<string> {
  const previous = await readPrevious(join(dataDir, DEV_CREDENTIALS_FILE));
  if (typeof previous?.apiKey === 'string') {
    const found = await deps.store.apiKeys.findByHash(hashSecret(previous.apiKey));
    if (found.isOk() && found.value && isApiKeyActive(found.value, deps.clock.now())) return previous.apiKey;
  }
  const created = await createApiKey(deps, { label: 'development', tenant: DEFAULT_TENANT });
  if (created.isErr()) throw new Error(`could not store the development API key: ${created.error.message}`);
  return created.value.apiKey;
}

/** web3.js's rule for the websocket of an RPC URL: same host, port + 1 when a port is given. */
function derivedWebsocketUrl(rpcUrl: string): string | undefined {
  try {
    const url = new URL(rpcUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    if (url.port !== '') url.port = String(Number(url.port) + 1);
    return url.toString().replace(/\/$/, '');
  } catch {
    return undefined;
  }
}

/**
 * The chain's websocket when the caller does not know it: a token-actions localnet (`pnpm
 * localnet`) tells it in `localnet_getMints`; any other cluster gets the one web3.js would derive.
 * Bounded, so a silent endpoint cannot hold start-up.
 */
async function chainWebsocket(rpcUrl: string): Promise<string | undefined> {
  const derived = derivedWebsocketUrl(rpcUrl);
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'localnet_getMints', params: [] }),
      signal: AbortSignal.timeout(2_000),
    });
    const answer = ((await response.json()) as { result?: { wsUrl?: string } }).result;
    return answer?.wsUrl ?? derived;
  } catch {
    return derived;
  }
}

/** Writes the file; the websocket is asked of the chain when not given. */
export async function writeDevCredentials(dataDir: string, credentials: DevCredentials): Promise<string> {
  const path = join(dataDir, DEV_CREDENTIALS_FILE);
  const { baseUrl, apiKey, adminToken, rpcUrl, mints, oauth } = credentials;
  const wsUrl = credentials.wsUrl ?? (await chainWebsocket(rpcUrl));
  const complete: DevCredentials = {
    baseUrl,
    apiKey,
    ...(adminToken ? { adminToken } : {}),
    rpcUrl,
    ...(wsUrl ? { wsUrl } : {}),
    ...(mints ? { mints } : {}),
    ...(oauth ? { oauth } : {}),
  };
  await writeFile(path, `${JSON.stringify(complete, null, 2)}\n`, { mode: 0o600 });
  return path;
}
