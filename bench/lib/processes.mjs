// Child processes of the bench (the service, the ceilings, helper scripts) and their memory.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** bench/, where the helper scripts live, and the repository root (the children's cwd). */
export const here = dirname(dirname(fileURLToPath(import.meta.url)));
export const root = dirname(here);

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * The Node flags the server runs with: those of `apps/server`'s start script (`node <flags>
 * dist/main.js`), so the bench measures the server as `pnpm start` runs it.
 */
export async function serverNodeFlags() {
  const { scripts } = JSON.parse(await readFile(join(root, 'apps/server/package.json'), 'utf8'));
  const words = scripts.start.split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'dist/main.js')
    throw new Error(`apps/server's start script is not "node <flags> dist/main.js": ${scripts.start}`);
  return words.slice(1, -1);
}

/** Starts a child process, resolves once `ready(stdoutSoFar)` returns a value. */
export function startChild(command, argv, { env = {}, ready, timeoutMs = 120_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`${argv.join(' ')} did not start:\n${out}\n${err}`)),
      timeoutMs,
    );
    child.stdout.on('data', (d) => {
      out += d;
      const value = ready(out);
      if (value !== undefined) {
        clearTimeout(timer);
        resolve({ child, value });
      }
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${argv.join(' ')} exited with ${code}:\n${out.slice(-2000)}\n${err.slice(-2000)}`));
    });
  });
}

export function stopChild(child, signal = 'SIGTERM') {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill(signal);
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

export function runNode(script, argv = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, script), ...argv], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop();
      if (code !== 0) return reject(new Error(`${script} exited with ${code}: ${err.slice(-2000)}`));
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`${script} printed no JSON: ${out.slice(-500)} ${err.slice(-500)}`));
      }
    });
  });
}

/** Runs a TypeScript helper through tsx (the root devDependency); resolves its last JSON line. */
export function runTsx(script, argv = []) {
  return new Promise((resolve, reject) => {
    const tsx = join(root, 'node_modules', '.bin', 'tsx');
    const child = spawn(tsx, [join(here, script), ...argv], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => {
      if (code !== 0)
        return reject(
          new Error(`${script} exited with ${code}: ${err.trim().split('\n').slice(-3).join(' ')}`),
        );
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch {
        reject(new Error(`${script} printed no JSON: ${out.slice(-300)}`));
      }
    });
  });
}

/** Resident set size of a process now and at its peak (VmHWM), in MiB. */
export async function memoryOf(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
}
