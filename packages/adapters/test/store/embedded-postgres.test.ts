import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TENANT } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedPostgresClient, createPgStore, migrate } from '../../src/store/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..', '..');

let root: string;
let count = 0;
const freshDir = () => join(root, `db-${++count}`);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ta-embedded-pg-'));
  // The `nobody` variant below must be able to reach its data directory.
  await chmod(root, 0o755);
});
afterAll(() => rm(root, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForExit(pid: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still running`);
    await sleep(50);
  }
}

/**
 * Runs the committing child until it has acknowledged `acks` commits, then SIGKILLs either every
 * process at once (the owner's process group and the server's: the watchdog and the postmaster;
 * the backends then see the postmaster die) or the owner alone.
 */
async function runAndKill(dataDir: string, acks: number, target: 'group' | 'owner') {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(here, 'fixtures', 'embedded-postgres-child.ts'), dataDir],
    {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const acked: string[] = [];
  let watchdogPid = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('ready ')) {
      watchdogPid = Number(line.slice(6));
      continue;
    }
    acked.push(line);
    if (acked.length === acks) {
      if (target === 'group') {
        // The owner's group and the server's (it runs in a group of its own), at once.
        process.kill(-child.pid!, 'SIGKILL');
        process.kill(-watchdogPid, 'SIGKILL');
      } else child.kill('SIGKILL');
    }
  }
  await exited;
  if (acked.length < acks) throw new Error(`child stopped early: ${stderr.slice(-2000)}`);
  return { acked, watchdogPid };
}

async function countPresent(dataDir: string, ids: readonly string[]): Promise<number> {
  const sql = await createEmbeddedPostgresClient({ dataDir });
  try {
    const { rows } = await sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM acks WHERE id = ANY($1::text[]) AND n = 1',
      [ids],
    );
    return rows[0]!.n;
  } finally {
    await sql.close();
  }
}

describe('embedded PostgreSQL', () => {
  it('creates its cluster on the first start only, keeps data across a clean restart, stops its server on close', async () => {
    const dataDir = freshDir();
    const first = await createEmbeddedPostgresClient({ dataDir });
    expect(first.created).toBe(true);
    await migrate(first);
    await createPgStore(first).apiKeys.insert({
      id: 'key_1',
      label: 'dev',
      tenant: DEFAULT_TENANT,
      hash: 'h'.repeat(64),
      createdAt: new Date(),
    });
    const { rows } = await first.query<{ fsync: string; synchronous_commit: string }>(
      `SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS synchronous_commit`,
    );
    expect(rows[0]).toEqual({ fsync: 'on', synchronous_commit: 'on' });
    const pid = first.serverPid!;
    await first.close();
    expect(alive(pid)).toBe(false);

    const second = await createEmbeddedPostgresClient({ dataDir });
    try {
      expect(second.created).toBe(false);
      expect((await migrate(second)).applied).toEqual([]);
      expect((await createPgStore(second).apiKeys.findByHash('h'.repeat(64)))._unsafeUnwrap()?.id).toBe(
        'key_1',
      );
    } finally {
      await second.close();
    }
  });

  it('refuses a second owner of the same data directory while the first runs', async () => {
    const dataDir = freshDir();
    const owner = await createEmbeddedPostgresClient({ dataDir });
    try {
      await expect(createEmbeddedPostgresClient({ dataDir, takeoverTimeoutMs: 1000 })).rejects.toThrow(
        /in use by another running server/,
      );
      expect((await owner.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
    } finally {
      await owner.close();
    }
  });

  it('keeps every acknowledged commit when the owner, the watchdog and the server are all killed with SIGKILL', async () => {
    const dataDir = freshDir();
    const { acked } = await runAndKill(dataDir, 200, 'group');
    expect(await countPresent(dataDir, acked)).toBe(acked.length);
    const again = await runAndKill(dataDir, 100, 'group');
    expect(await countPresent(dataDir, [...acked, ...again.acked])).toBe(acked.length + again.acked.length);
  });

  it('stops the server when only its owner is killed with SIGKILL, and the next owner finds every acknowledged commit', async () => {
    const dataDir = freshDir();
    const { acked, watchdogPid } = await runAndKill(dataDir, 200, 'owner');
    // No server outlives its owner: the watchdog saw the pipe close and shut the server down.
    await waitForExit(watchdogPid);
    const postmaster = await readFile(join(dataDir, 'cluster', 'postmaster.pid'), 'utf8').catch(
      () => undefined,
    );
    if (postmaster !== undefined) await waitForExit(Number.parseInt(postmaster, 10));
    expect(await countPresent(dataDir, acked)).toBe(acked.length);
  });

  it.skipIf(process.platform !== 'linux')(
    'starts over a postmaster.pid whose pid now belongs to another live process',
    async () => {
      const dataDir = freshDir();
      await (await createEmbeddedPostgresClient({ dataDir })).close();
      // What a container restart leaves: the file of a server that died, its pid now someone else's.
      const other = spawn('sleep', ['60'], { stdio: 'ignore' });
      try {
        const pidFile = join(dataDir, 'cluster', 'postmaster.pid');
        await writeFile(pidFile, `${other.pid}\n${join(dataDir, 'cluster')}\n0\n5432\n/nonexistent\n`);
        const sql = await createEmbeddedPostgresClient({ dataDir, takeoverTimeoutMs: 2000 });
        try {
          expect((await sql.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
          expect(Number.parseInt(await readFile(pidFile, 'utf8'), 10)).not.toBe(other.pid);
        } finally {
          await sql.close();
        }
        expect(alive(other.pid!)).toBe(true);
      } finally {
        other.kill('SIGKILL');
      }
    },
  );

  it.skipIf(process.getuid?.() !== 0)(
    'runs as the unprivileged nobody user when told not to use a user namespace',
    async () => {
      const dataDir = freshDir();
      const sql = await createEmbeddedPostgresClient({ dataDir, isolation: 'user' });
      try {
        expect((await sql.query<{ n: string }>('SELECT 7::int8 AS n')).rows[0]!.n).toBe('7');
        expect((await stat(join(dataDir, 'cluster'))).uid).not.toBe(0);
      } finally {
        await sql.close();
      }
    },
  );
});
