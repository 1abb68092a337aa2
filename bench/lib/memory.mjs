// Memory of the service on its embedded default under donation load, counting every process it
// runs: the Node server and its descendants (the embedded PostgreSQL server: its watchdog shell,
// postmaster and backends; initdb on the first start). Each process's PSS (proportional set size,
// from /proc/<pid>/smaps_rollup) shares the pages processes have in common among them, so the sum
// is what the tree costs the machine; summed RSS would count PostgreSQL's shared memory once per
// backend. Sampled every 100 ms from spawn to stop. Linux only.
//
//   in `pnpm bench` (after the service measures), or alone:
//   node bench/lib/memory.mjs [--duration 10] [--embedded postgres|pglite]
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DURATION, log, option } from './cli.mjs';
import { cannon, json, lamportsToSol, round, summary } from './load.mjs';
import { freePort, root, serverNodeFlags, stopChild } from './processes.mjs';

const BUDGET_MIB = 300; // the server's peak under donation load on the embedded default must stay under this

/** pid → parent pid, for every process now. */
async function parents() {
  const map = new Map();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined);
    if (!stat) continue;
    // The command name may hold spaces and parentheses: the fields after it start at the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    map.set(Number(name), ppid);
  }
  return map;
}

/** The process and all its descendants. */
async function tree(pid) {
  const map = await parents();
  const found = [pid];
  for (let i = 0; i < found.length; i++)
    for (const [child, parent] of map) if (parent === found[i]) found.push(child);
  return found;
}

async function kib(path, field) {
  const text = await readFile(path, 'utf8').catch(() => '');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
}

/** PSS of the process and of its descendants, and the process's own peak RSS (VmHWM), in MiB. */
export async function treeMemory(pid) {
  const pids = await tree(pid);
  const pss = await Promise.all(pids.map((p) => kib(`/proc/${p}/smaps_rollup`, 'Pss')));
  return {
    selfPssMiB: pss[0] / 1024,
    childrenPssMiB: pss.slice(1).reduce((a, b) => a + b, 0) / 1024,
    selfPeakRssMiB: (await kib(`/proc/${pid}/status`, 'VmHWM')) / 1024,
    processes: pids.length,
  };
}

/** Samples `treeMemory(pid)` until stopped; keeps the peaks of the current phase. */
function sampler(pid, intervalMs = 100) {
  const phases = {};
  let current;
  const take = async () => {
    const m = await treeMemory(pid);
    if (!current || m.processes === 0) return;
    const total = m.selfPssMiB + m.childrenPssMiB;
    current.samples++;
    current.peakTotalPssMiB = Math.max(current.peakTotalPssMiB, total);
    current.peakSelfPssMiB = Math.max(current.peakSelfPssMiB, m.selfPssMiB);
    current.peakChildrenPssMiB = Math.max(current.peakChildrenPssMiB, m.childrenPssMiB);
    current.maxProcesses = Math.max(current.maxProcesses, m.processes);
    current.selfPeakRssMiB = m.selfPeakRssMiB || current.selfPeakRssMiB;
  };
  let running = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(take, take);
  }, intervalMs);
  return {
    phase(name) {
      current = phases[name] = {
        samples: 0,
        peakTotalPssMiB: 0,
        peakSelfPssMiB: 0,
        peakChildrenPssMiB: 0,
        maxProcesses: 0,
        selfPeakRssMiB: 0,
      };
    },
    async stop() {
      clearInterval(timer);
      await running;
      await take();
      return phases;
    },
  };
}

export async function measureMemory(meta, { embedded = option('embedded', undefined) } = {}) {
  if (process.platform !== 'linux') {
    meta.memory = { skipped: 'needs /proc (Linux)' };
    return;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'token-actions-bench-memory-'));
  const { DATABASE_URL: _external, ...inherited } = process.env;
  const env = {
    ...inherited,
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    LOCALNET_RPC_PORT: String(await freePort()),
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000000',
    ...(embedded ? { EMBEDDED_DATABASE: embedded } : {}),
  };
  const bootedAt = performance.now();
  const server = spawn(
    process.execPath,
    [...(await serverNodeFlags()), join(root, 'apps/server/dist/main.js')],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // Sampled from the spawn on: the first start (initdb) is part of what the default costs.
  const samples = sampler(server.pid);
  samples.phase('boot');
  let out = '';
  server.stderr.on('data', (d) => {
    out += d;
  });
  let donate;
  try {
    await new Promise((resolve, reject) => {
      server.stdout.on('data', (d) => {
        out += d;
        if (/listening on/i.test(out)) resolve();
      });
      server.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out.slice(-2000)}`)));
    });
    const bootMs = performance.now() - bootedAt;
    const { baseUrl, apiKey } = JSON.parse(await readFile(join(dataDir, 'dev-credentials.json'), 'utf8'));
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const accounts = [];
    for (let i = 0; i < 8; i++) {
      const pk = (await json(baseUrl, apiKey, 'POST', '/v1/api/accounts', {})).body.publicKey;
      const airdrop = await json(baseUrl, apiKey, 'POST', `/v1/api/accounts/${pk}/airdrop`, {
        currency: 'SOL',
        amount: '1000',
      });
      if (airdrop.status !== 200) throw new Error(`airdrop failed: ${JSON.stringify(airdrop.body)}`);
      accounts.push(pk);
    }
    samples.phase('load');
    let n = 0;
    donate = summary(
      await cannon({
        url: baseUrl,
        requests: [
          {
            method: 'POST',
            path: '/v1/api/donate/sol',
            headers,
            setupRequest: (req) => {
              n++;
              const body = {
                account: accounts[n % accounts.length],
                amount: lamportsToSol(n),
                priority: 'Medium',
              };
              return { ...req, body: JSON.stringify(body) };
            },
          },
        ],
      }),
    );
    meta.memory = { embedded: embedded ?? 'default', bootMs: round(bootMs, 0), donate };
  } finally {
    const phases = await samples.stop();
    await stopChild(server);
    await rm(dataDir, { recursive: true, force: true });
    meta.memory = { ...meta.memory, phases };
  }
  const load = meta.memory.phases.load;
  // The Node server's own peak comes from the kernel (VmHWM, exact); its children's from samples.
  meta.memory.peakUnderLoadMiB = round(load.peakTotalPssMiB);
  meta.memory.budgetMiB = BUDGET_MIB;
  meta.memory.withinBudget = load.peakTotalPssMiB < BUDGET_MIB;
  log(
    `memory (${meta.memory.embedded} embedded database): under donation load (${round(donate.reqPerSec, 0)} req/s, ${donate.non2xx} non-2xx) ` +
      `peak PSS of the server and its ${load.maxProcesses - 1} child processes ${round(load.peakTotalPssMiB)} MiB ` +
      `(Node ${round(load.peakSelfPssMiB)}, children ${round(load.peakChildrenPssMiB)}; Node's own peak RSS ${round(load.selfPeakRssMiB)} MiB); ` +
      `budget ${BUDGET_MIB} MiB: ${meta.memory.withinBudget ? 'met' : 'MISSED'}. Start-up ${meta.memory.bootMs} ms.`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const meta = {};
  await measureMemory(meta);
  log(JSON.stringify({ duration: DURATION, ...meta.memory }));
}
