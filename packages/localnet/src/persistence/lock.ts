import { closeSync, fsyncSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** One process at a time owns a state directory: a second one on the same DATA_DIR is refused. */

const LOCK = 'LOCK';

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Lock files this process holds: a lock naming our pid that is not here was left by an earlier
 * process that had the same pid (a container's pid 1 after a restart). */
const heldLocks = new Set<string>();

/** When a process started, in clock ticks since boot (Linux); tells a reused pid from the original. */
function startTicks(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

function lockHeld(path: string, content: string): boolean {
  const [pidText, ticks = ''] = content.trim().split(' ');
  const pid = Number.parseInt(pidText ?? '', 10);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return heldLocks.has(path);
  if (!pidAlive(pid)) return false;
  return ticks === '' || startTicks(pid) === '' || startTicks(pid) === ticks;
}

/** Takes the directory for this process; a lock left by a dead process (kill -9) is taken over. */
export function acquireLock(dir: string): string {
  const path = join(dir, LOCK);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid} ${startTicks(process.pid)}\n`);
      closeSync(fd);
      heldLocks.add(path);
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let content = '';
    try {
      content = readFileSync(path, 'utf8');
    } catch {
      // Vanished or unreadable: try again.
    }
    if (lockHeld(path, content)) {
      const holder = content.trim().split(' ')[0];
      throw new Error(
        holder === String(process.pid)
          ? `localnet state in ${dir} is already open in this process (close the other chain first)`
          : `localnet state in ${dir} is in use by process ${holder}`,
      );
    }
    try {
      unlinkSync(path);
    } catch {
      // Another process took it over first; the next attempt sees its lock.
    }
  }
  throw new Error(`cannot lock localnet state in ${dir}`);
}

/** Gives the directory up (the journal is closed). */
export function releaseLock(path: string): void {
  heldLocks.delete(path);
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
