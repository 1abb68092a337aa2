/**
 * The service's OpenAPI document as the built server serves it.
 *
 * The server's dist exports `createApp(services)` only; the composition those services come from
 * (`startServer`, `compose`, `parseConfig`) stays inside its entry, and a hand-made set of fakes
 * would drift from what the real composition mounts. So the built Node entry is started on a free
 * port and a throw-away DATA_DIR, and `/v1/openapi.json` is read from it, as an integrator would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SERVER_ENTRY = join(REPO, 'apps', 'server', 'dist', 'main.js');

/**
 * The OAuth security scheme names the issuer, i.e. the origin the server listens on, which is a
 * new port every run. The snapshot names the documented default origin instead (DESIGN section 2:
 * PORT 8787), so the committed files only change when the API does.
 */
export const SNAPSHOT_ORIGIN = 'http://localhost:8787';

const START_TIMEOUT_MS = 180_000;

export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, unknown> };

export async function fetchLiveDocument(): Promise<OpenApiDocument> {
  try {
    await access(SERVER_ENTRY);
  } catch {
    throw new Error(`${SERVER_ENTRY} is missing: build the server first (pnpm build)`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'token-actions-client-openapi-'));
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    // A clean environment: a DATABASE_URL, REDIS_URL or SOLANA_RPC_URL of the caller's shell must
    // not point this throw-away server at real state. The embedded defaults serve every route.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // PGlite starts without initdb; no JSON-RPC port and no worker loops are needed to serve a document.
      EMBEDDED_DATABASE: 'pglite',
      LOCALNET_RPC: 'false',
      RUN_WORKER: 'false',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  try {
    const baseUrl = await waitForBaseUrl(child, dataDir, () => stderr);
    const response = await fetch(`${baseUrl}/v1/openapi.json`);
    if (!response.ok) throw new Error(`/v1/openapi.json answered ${response.status}`);
    const text = await response.text();
    return JSON.parse(text.replaceAll(baseUrl, SNAPSHOT_ORIGIN)) as OpenApiDocument;
  } finally {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `dev-credentials.json` is written once the app answers (DESIGN section 2), with its `baseUrl`. */
async function waitForBaseUrl(child: ChildProcess, dataDir: string, stderr: () => string): Promise<string> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  const credentials = join(dataDir, 'dev-credentials.json');
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the server exited with ${child.exitCode} before answering: ${stderr().trim()}`);
    }
    try {
      const { baseUrl } = JSON.parse(await readFile(credentials, 'utf8')) as { baseUrl: string };
      return baseUrl;
    } catch {
      // Not written yet (or half written): poll again.
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s: ${stderr().trim()}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const killAfter = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killAfter);
}
