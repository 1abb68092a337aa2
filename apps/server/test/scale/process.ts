import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

export const SERVER_MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh PostgreSQL database for one test, dropped afterwards. */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly output: () => string;
}

/** Starts `node dist/main.js` and waits until it has written fresh dev credentials and answers /healthz. */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServerProcess> {
  const dataDir = env.DATA_DIR!;
  const credentialsPath = join(dataDir, 'dev-credentials.json');
  // The file is kept across restarts (it carries the API key, and so the idempotency scope);
  // a fresh one is recognised by its modification time.
  const startedAt = Date.now();
  let output = '';
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await stat(credentialsPath)).mtimeMs < startedAt) throw new Error('stale credentials');
      const creds = JSON.parse(await readFile(credentialsPath, 'utf8')) as {
        baseUrl: string;
        apiKey: string;
      };
      const health = await fetch(`${creds.baseUrl}/healthz`);
      if (health.ok) return { child, baseUrl: creds.baseUrl, apiKey: creds.apiKey, output: () => output };
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether the child has exited: on its own (an exit code) or killed (a signal, and no exit code). */
const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

export async function killHard(server: ServerProcess): Promise<void> {
  if (hasExited(server.child)) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGKILL');
  await exited;
}

export async function stopGracefully(server: ServerProcess): Promise<void> {
  if (hasExited(server.child)) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await exited;
}

export function client(baseUrl: string, apiKey: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = { raw: text };
    }
    return { status: res.status, json };
  };
}

export const LOCALNET_MAIN = new URL('../../../../packages/localnet/dist/main.js', import.meta.url).pathname;
export const WORKER_MAIN = new URL('../../../worker/dist/main.js', import.meta.url).pathname;

/** Starts `pnpm localnet`'s entry and waits for its LOCALNET_READY line. */
export async function startLocalnetProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; rpcUrl: string }> {
  const child = spawn(process.execPath, [LOCALNET_MAIN], {
    env: { ...process.env, LOCALNET_RPC_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`localnet did not start:\n${output}`)), 30_000);
    const onData = (d: Buffer) => {
      output += d;
      const line = /LOCALNET_READY (\{.*\})/.exec(output);
      if (line) {
        clearTimeout(timer);
        resolve({ child, rpcUrl: (JSON.parse(line[1]!) as { rpcUrl: string }).rpcUrl });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d) => (output += d));
    child.once('exit', (code) => reject(new Error(`localnet exited with ${code}:\n${output}`)));
  });
}

/** A localnet process for tests: state under `root/localnet`, fast slots, the given master key. */
export function startTestLocalnet(
  root: string,
  masterKey: string,
): Promise<{ child: ChildProcess; rpcUrl: string }> {
  return startLocalnetProcess({
    DATA_DIR: join(root, 'localnet'),
    KEYSTORE_MASTER_KEY: masterKey,
    SLOT_INTERVAL_MS: '20',
    FINALITY_DEPTH_SLOTS: '4',
  });
}

export function startWorkerProcess(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
} {
  let output = '';
  const child = spawn(process.execPath, [WORKER_MAIN], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}
