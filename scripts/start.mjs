// `pnpm start`: builds what the server needs to run, then runs it on its embedded defaults.
//
// The build is each package's `build:run`: tsup without type declarations (they are for
// `pnpm build`, `pnpm test` and editors, and took about 105 s of the 126 s full build), all packages
// at once (each bundle leaves the others' imports external, so none waits for another's dist), cached
// by turbo (D160). Its output is shown only when it fails. The server then logs its own start-up steps
// (database, localnet, pools) and prints where it listens. Signals reach the server, whose exit code
// becomes this script's.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const binDir = join(root, 'node_modules', '.bin');

/** Runs a command with its output captured: `{code, output}`. */
function runQuietly(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${command}: ${error.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString() }));
  });
}

const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

const buildStart = performance.now();
process.stdout.write('token-actions: build (JavaScript only, no type declarations) ... ');
const build = await runQuietly('turbo', [
  'run',
  'build:run',
  '--filter=@token-actions/server...',
  '--output-logs=errors-only',
]);
if (build.code !== 0) {
  process.stdout.write('failed\n');
  process.stderr.write(build.output);
  process.exit(build.code);
}
// turbo's summary: "Cached:    3 cached, 5 total".
const cached = /Cached:\s+(\d+) cached, (\d+) total/.exec(build.output);
process.stdout.write(
  `${seconds(buildStart)}${cached ? ` (${cached[2]} packages, ${cached[1]} from cache)` : ''}\n`,
);
process.stdout.write('token-actions: starting the server (database, localnet, pools, listener)\n');

// The server runs as `apps/server`'s start script says (`node <flags> dist/main.js`: its Node flags
// live there, and the bench reads them from there too).
const [node, ...serverArgs] = JSON.parse(
  readFileSync(join(root, 'apps/server/package.json'), 'utf8'),
).scripts.start.split(/\s+/);
if (node !== 'node') throw new Error(`apps/server's start script does not run node: ${serverArgs.join(' ')}`);
const entry = join(root, 'apps/server', serverArgs.pop());
const server = spawn(process.execPath, [...serverArgs, entry], { stdio: 'inherit' });
// Ctrl-C reaches the server from the terminal too; its shutdown runs once either way.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
