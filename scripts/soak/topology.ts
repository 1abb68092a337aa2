/** The servers under soak: given by URL, or spawned here (localnet, servers, worker) and cleaned up after. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag, log, option } from './cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Server {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly pid?: number;
}

const children: ChildProcess[] = [];
/** Processes of the topology that exited before the soak stopped them. */
export const crashes: string[] = [];
let stopping = false;
const scratch: string[] = [];

function assertLoopback(url: string) {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host)) {
    throw new Error(`${url} is not a loopback address: the soak only drives servers on this machine`);
  }
}

function startProcess(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, [join(root, script)], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start:\n${output.slice(-2000)}`)),
      90_000,
    );
    const onData = (d: Buffer) => {
      output += d;
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (output += d));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output.slice(-2000)}`));
      if (!stopping) {
        crashes.push(
          `${script} (pid ${child.pid}) exited with ${code ?? signal} during the soak: ${output.slice(-1500)}`,
        );
        log(`!! ${script} (pid ${child.pid}) exited with ${code ?? signal}:\n${output.slice(-1500)}`);
      }
    });
  });
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ta-soak-server-'));
  scratch.push(dataDir);
  const { child } = await startProcess(
    'apps/server/dist/main.js',
    { PORT: '0', DATA_DIR: dataDir, LOCALNET_RPC_PORT: '0', ...env },
    /listening on/i,
  );
  const creds = JSON.parse(await readFile(join(dataDir, 'dev-credentials.json'), 'utf8')) as {
    baseUrl: string;
    apiKey: string;
  };
  return { baseUrl: creds.baseUrl, apiKey: creds.apiKey, pid: child.pid! };
}

async function spawnTopology(count: number): Promise<{ servers: Server[]; workerPids: number[] }> {
  if (flag('embedded')) {
    if (count !== 1) throw new Error('--embedded runs one server: its chain lives in its own process');
    return { servers: [await startServer({})], workerPids: [] };
  }
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl)
    throw new Error('--spawn needs DATABASE_URL and REDIS_URL (or add --embedded for one server on PGlite)');
  assertLoopback(databaseUrl.replace(/^postgres(ql)?:/, 'http:'));
  assertLoopback(redisUrl.replace(/^rediss?:/, 'http:'));
  const masterKey = randomBytes(32).toString('hex');
  const localnetDir = await mkdtemp(join(tmpdir(), 'ta-soak-localnet-'));
  scratch.push(localnetDir);
  const localnet = await startProcess(
    'packages/localnet/dist/main.js',
    { DATA_DIR: localnetDir, KEYSTORE_MASTER_KEY: masterKey, LOCALNET_RPC_PORT: '0' },
    /LOCALNET_READY (\{.*\})/,
  );
  const rpcUrl = (JSON.parse(localnet.match[1]!) as { rpcUrl: string }).rpcUrl;
  const shared = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    SOLANA_RPC_URL: rpcUrl,
    KEYSTORE_MASTER_KEY: masterKey,
  };
  const started: Server[] = [];
  for (let i = 0; i < count; i++) started.push(await startServer({ ...shared, RUN_WORKER: 'false' }));
  // One client, one API key on every server (keys live in the shared database): idempotency keys
  // are scoped per API key, so a retry on another server must use the same one.
  const servers = started.map((s) => ({ ...s, apiKey: started[0]!.apiKey }));
  const workerDir = await mkdtemp(join(tmpdir(), 'ta-soak-worker-'));
  scratch.push(workerDir);
  const worker = spawn(process.execPath, [join(root, 'apps/worker/dist/main.js')], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...shared, DATA_DIR: workerDir, WORKER_ID: 'soak-worker' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(worker);
  return { servers, workerPids: [worker.pid!, localnet.child.pid!] };
}

export async function resolveServers(): Promise<{ servers: Server[]; workerPids: number[] }> {
  const spawnCount = option('spawn');
  if (spawnCount !== undefined || flag('spawn')) return spawnTopology(Number(spawnCount ?? 2));
  const urls = (option('urls', 'SOAK_URLS') ?? '').split(',').filter(Boolean);
  const apiKey = option('api-key', 'SOAK_API_KEY');
  if (urls.length === 0 || !apiKey)
    throw new Error('give --urls and --api-key (or SOAK_URLS / SOAK_API_KEY), or --spawn');
  const pids = (option('pids') ?? '').split(',').filter(Boolean).map(Number);
  for (const url of urls) assertLoopback(url);
  return {
    servers: urls.map((baseUrl, i) => ({
      baseUrl: baseUrl.replace(/\/$/, ''),
      apiKey,
      ...(pids[i] ? { pid: pids[i] } : {}),
    })),
    workerPids: [],
  };
}

/** Stops every process the soak started (children first to last started, reversed) and removes their directories. */
export async function cleanup() {
  stopping = true;
  for (const child of children.reverse()) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
}
