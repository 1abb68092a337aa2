import { spawn } from 'node:child_process';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;

/** Runs the built `cli.js` with only `env` (and PATH), as an operator's shell would. */
export function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? -1, out, err }));
  });
}
