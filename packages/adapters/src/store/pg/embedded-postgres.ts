import { mkdir, mkdtemp, open, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  accessHint,
  chooseIsolation,
  ensureCluster,
  grant,
  type Isolation,
  isAlive,
  loadBinaries,
  logTail,
  readPostmasterFile,
  type StartedServer,
  startServer,
  stopServer,
} from './embedded-postgres-process.js';
import { createPostgresClient } from './postgres.js';
import type { SqlClient } from './sql.js';

export interface EmbeddedPostgresOptions {
  /** Directory of the embedded server: its cluster (`cluster/`), log (`postgres.log`) and socket. */
  readonly dataDir: string;
  /** Pool size; default 10. */
  readonly max?: number;
  /** Server settings (`postgres -c name=value`) over the defaults below; the durability ones are fixed. */
  readonly settings?: Readonly<Record<string, string>>;
  /** How not to run as root: 'auto' (default) tries a user namespace, then the `nobody` user. */
  readonly isolation?: 'auto' | 'userns' | 'user';
  /** How long to wait for the server of a previous owner of `dataDir` to finish stopping; default 20 s. */
  readonly takeoverTimeoutMs?: number;
  /** Called when an idle pooled connection fails. */
  readonly onIdleError?: (error: Error) => void;
  /** Called if the server stops while the client is open (the client then fails every query). */
  readonly onServerExit?: (code: number | null) => void;
}

export interface EmbeddedPostgresClient extends SqlClient {
  /** Whether this start had to create the cluster (the first start on a data directory). */
  readonly created: boolean;
  /** Pid of the watchdog shell that owns the server (it and the server stop with this process). */
  readonly serverPid: number | undefined;
}

// A small footprint for a single-tenant service: the OS page cache does most of the caching.
const DEFAULT_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '16MB',
  max_wal_size: '256MB',
  min_wal_size: '32MB',
  max_parallel_workers_per_gather: '0',
  jit: 'off',
  huge_pages: 'off',
  log_checkpoints: 'off',
};

// Never overridable: an acknowledged commit is on disk before the client hears of it.
const DURABILITY: Readonly<Record<string, string>> = {
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
};

const READY_TIMEOUT_MS = 60_000;
const SOCKET_NAME = '.s.PGSQL.5432';
// sun_path holds 104 bytes on macOS, 108 on Linux (with the terminating NUL).
const MAX_SOCKET_PATH = 100;

/**
 * A real PostgreSQL server, from the binaries an npm package ships, run as a child of this process
 * under `dataDir` and reached over a private unix socket by the same node-postgres pool as
 * `DATABASE_URL`. Off the event loop, a few tens of MiB, and durable (fsync on every commit).
 *
 * One process owns a data directory: a second one is refused while the first runs. The server
 * stops when its owner does, even on kill -9, and the next start recovers from the WAL.
 */
export async function createEmbeddedPostgresClient(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresClient> {
  const dataDir = resolve(options.dataDir);
  const binaries = await loadBinaries();
  const isolation = chooseIsolation(options.isolation);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await grant(isolation, dataDir);

  const clusterDir = join(dataDir, 'cluster');
  await waitForPreviousOwner(clusterDir, options.takeoverTimeoutMs ?? 20_000);
  const { created } = await ensureCluster(binaries, isolation, clusterDir);
  const socket = await socketDirectory(dataDir, isolation);
  const max = options.max ?? 10;
  const settings = {
    ...DEFAULT_SETTINGS,
    max_connections: String(Math.max(20, max + 10)),
    ...options.settings,
    ...DURABILITY,
    listen_addresses: '',
    port: '5432',
    unix_socket_directories: socket.dir,
    unix_socket_permissions: '0700',
  };

  const logPath = join(dataDir, 'postgres.log');
  const log = await open(logPath, 'a', 0o600);
  let server: StartedServer;
  try {
    server = startServer(binaries, isolation, clusterDir, settings, log.fd);
  } finally {
    await log.close();
  }

  let closing = false;
  void server.exited.then((code) => {
    if (!closing) options.onServerExit?.(code);
  });

  try {
    await waitUntilReady(socket.dir, server, logPath, accessHint(isolation));
  } catch (error) {
    closing = true;
    await stopServer(server, clusterDir);
    await socket.dispose();
    throw error;
  }

  const connectionString = `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socket.dir)}`;
  const sql = createPostgresClient({
    connectionString,
    max,
    ...(options.onIdleError ? { onIdleError: options.onIdleError } : {}),
  });

  return {
    ...sql,
    created,
    serverPid: server.child.pid,
    async close() {
      if (closing) return;
      closing = true;
      await sql.close();
      await stopServer(server, clusterDir);
      await socket.dispose();
    },
  };
}

/**
 * A server still running from a previous owner that died is stopping on its own (its watchdog saw
 * the pipe close); wait for it. One that answers queries belongs to a live owner: refuse.
 */
async function waitForPreviousOwner(clusterDir: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const previous = await readPostmasterFile(clusterDir);
    if (!previous || !isAlive(previous.pid)) return;
    if (!(await mayBePostgres(previous.pid))) {
      // The pid was reused (a container restarted, the machine rebooted): the file is stale, and
      // PostgreSQL would refuse to start while a live process of this user has that pid.
      await rm(join(clusterDir, 'postmaster.pid'), { force: true });
      return;
    }
    if (await answers(previous.socketDir)) {
      throw new Error(`${clusterDir} is in use by another running server (pid ${previous.pid})`);
    }
    if (Date.now() > deadline) {
      throw new Error(`${clusterDir} is still held by server pid ${previous.pid}, which did not stop`);
    }
    await sleep(100);
  }
}

/**
 * Whether a live pid may be a PostgreSQL server: false only when its executable is known to be
 * something else. A process this user cannot inspect is another user's, so not a server this user
 * started (as root every process can be inspected); without /proc (macOS) assume it may be.
 */
async function mayBePostgres(pid: number): Promise<boolean> {
  try {
    return basename(await readlink(`/proc/${pid}/exe`)).startsWith('postgres');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return !(code === 'EACCES' || code === 'EPERM');
  }
}

async function waitUntilReady(
  socketDir: string,
  server: StartedServer,
  logPath: string,
  hint: string,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exited = false;
  void server.exited.then(() => {
    exited = true;
  });
  while (!exited) {
    if (await answers(socketDir)) return;
    if (Date.now() > deadline) throw new Error(`PostgreSQL did not start within ${READY_TIMEOUT_MS} ms`);
    await sleep(25);
  }
  throw new Error(`PostgreSQL stopped while starting${hint}:\n${await logTail(logPath)}`);
}

async function answers(socketDir: string): Promise<boolean> {
  if (!socketDir) return false;
  const client = new pg.Client({ host: socketDir, user: 'postgres', database: 'postgres' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The socket lives beside the cluster unless that path is too long for a unix socket. */
async function socketDirectory(
  dataDir: string,
  isolation: Isolation,
): Promise<{ dir: string; dispose(): Promise<void> }> {
  const beside = join(dataDir, 'run');
  if (Buffer.byteLength(join(beside, SOCKET_NAME)) <= MAX_SOCKET_PATH) {
    await mkdir(beside, { recursive: true, mode: 0o700 });
    await grant(isolation, beside);
    return { dir: beside, dispose: async () => undefined };
  }
  const dir = await mkdtemp(join(tmpdir(), 'ta-pg-'));
  await grant(isolation, dir);
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}
