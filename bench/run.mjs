// `pnpm bench`: the service on its embedded default (LiteSVM + PGlite, a child process) under
// load from autocannon, next to the ceilings of its own stack measured in the same run:
//   - a bare Hono route on the same runtime (ceiling of the read routes),
//   - raw LiteSVM: pre-signed transfers sent in a loop in-process (ceiling of the donation route),
// then the tracking sweep at 10 / 1,000 / 10,000 unsettled transactions.
// Prints a table; writes bench/results.json (one entry per measure) and bench/results.meta.json.
//
//   pnpm bench                       (builds, then runs this)
//   node bench/run.mjs --duration 5  (seconds per measure; default 10)
//   node bench/run.mjs --profile     (also CPU-profiles the service during the donation run)
//   node bench/run.mjs --skip-scale  (no tracking scale run)
//   node bench/run.mjs --only donate --profile --skip-scale   (profile one measure)
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { summarizeProfile } from './profile.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const DURATION = Number(option('duration', 10));
/** `--only track` or `--only donate`: one service measure (with --profile, a profile of just it). */
const ONLY = option('only', undefined);
const wants = (name) => ONLY === undefined || ONLY === name;
const CONNECTIONS = Number(option('connections', 10));
const log = (line) => process.stdout.write(`${line}\n`);

// ------------------------------------------------------------------------------------------------
// Helpers

function freePort() {
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

/** Starts a child process, resolves once `ready(stdoutSoFar)` returns a value. */
function startChild(command, argv, { env = {}, ready, timeoutMs = 120_000 }) {
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

function stopChild(child, signal = 'SIGTERM') {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill(signal);
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

function runNode(script, argv = []) {
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
function runTsx(script, argv = []) {
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
async function memoryOf(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
}

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

function summary(result) {
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Open-loop load at a constant rate, from a child process (bench/paced.mjs). */
function paced(url, headers, rate, seconds) {
  const headerArgs = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return runNode('paced.mjs', [url, String(rate), String(seconds), ...headerArgs]);
}

const lamportsToSol = (lamports) => {
  const s = String(lamports).padStart(10, '0');
  const fraction = s.slice(-9).replace(/0+$/, '');
  return `${s.slice(0, -9).replace(/^0+(?=\d)/, '')}${fraction ? `.${fraction}` : ''}`;
};

/** Answers other than 200, by measure and status, with one body each (for the notes). */
const otherAnswers = {};
function noteStatus(measure, status, body) {
  if (status === 200) return;
  const key = `${measure} ${status}`;
  otherAnswers[key] ??= { count: 0, example: String(body ?? '').slice(0, 200) };
  otherAnswers[key].count++;
}

const round = (v, digits = 1) =>
  v === null || v === undefined || Number.isNaN(v) ? null : Number(v.toFixed(digits));

async function json(baseUrl, apiKey, method, path, body) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

// ------------------------------------------------------------------------------------------------
// Machine

async function machine() {
  const cpuinfo = await readFile('/proc/cpuinfo', 'utf8').catch(() => '');
  return {
    nproc: cpus().length,
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown',
    memTotalGiB: round(totalmem() / 2 ** 30, 1),
    memFreeGiB: round(freemem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

// ------------------------------------------------------------------------------------------------
// The run

const results = {};
const meta = {
  startedAt: new Date().toISOString(),
  durationSec: DURATION,
  connections: CONNECTIONS,
  notes: [],
};
meta.machine = await machine();
log(
  `machine: ${meta.machine.nproc} x ${meta.machine.cpuModel}, ${meta.machine.memTotalGiB} GiB, node ${meta.machine.node}`,
);

// 1. Ceiling of the HTTP stack.
{
  const { child, value: port } = await startChild(process.execPath, [join(here, 'ceiling-hono.mjs')], {
    ready: (out) => /LISTENING (\d+)/.exec(out)?.[1],
  });
  const url = `http://127.0.0.1:${port}/ping/5j7s6NiJS3JAkvgkoc18WVAsiSaci2pxB2A6ueCJP4tprA2TaUFzbq5sSz4W8x3V8uSR8NN3AjHThEFKmJ3WFn8s`;
  await cannon({ url, duration: 2 }); // warm-up
  const r = summary(await cannon({ url }));
  results['bare-hono'] = {
    reqPerSec: r.reqPerSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    ceilingReqPerSec: r.reqPerSec,
    ratio: 1,
  };
  meta.bareHonoPeakMiB = (await memoryOf(child.pid)).peakMiB;
  await stopChild(child);
  log(`bare Hono: ${round(r.reqPerSec, 0)} req/s`);
}

// 2. Ceiling of the chain.
{
  const r = await runNode('ceiling-litesvm.mjs', [String(Number(option('litesvm-count', 40_000)))]);
  if (r.landed !== r.count || !r.treasuryBalanceOk)
    throw new Error(`raw LiteSVM run did not land every transfer: ${JSON.stringify(r)}`);
  results['raw-litesvm'] = {
    reqPerSec: r.reqPerSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    ceilingReqPerSec: r.reqPerSec,
    ratio: 1,
  };
  meta.rawLiteSvm = r;
  log(`raw LiteSVM: ${round(r.reqPerSec, 0)} tx/s (${r.count} pre-signed transfers)`);
}

// 3. The service on its embedded default.
const dataDir = await mkdtemp(join(tmpdir(), 'token-actions-bench-'));
const port = await freePort();
const profileDir = flag('profile') ? await mkdtemp(join(tmpdir(), 'token-actions-prof-')) : undefined;
const ADMIN_TOKEN = `bench-admin-${Math.random().toString(36).slice(2)}-0123456789abcdef`;
const spawnedAt = performance.now();
/** Phases of the service run, in ms since it was spawned (to cut its CPU profile by phase). */
const phases = {};
const phase = async (name, fn) => {
  const from = performance.now() - spawnedAt;
  const value = await fn();
  phases[name] = { fromMs: from, toMs: performance.now() - spawnedAt };
  return value;
};
const { child: server } = await startChild(
  process.execPath,
  [
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    join(root, 'apps/server/dist/main.js'),
  ],
  {
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOCALNET_RPC_PORT: String(await freePort()),
      // Interface B: an admin token to register the bench's OAuth client, and rate limits far above
      // what the bench sends (the default, 600 a minute, would answer 429 within a second).
      OAUTH_ADMIN_TOKEN: ADMIN_TOKEN,
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000000',
    },
    ready: (out) => (/listening on/i.test(out) ? true : undefined),
  },
);
const rssSamples = [];
const sampler = setInterval(async () => rssSamples.push((await memoryOf(server.pid)).rssMiB), 250);
try {
  const credentials = JSON.parse(await readFile(join(dataDir, 'dev-credentials.json'), 'utf8'));
  const { baseUrl, apiKey } = credentials;
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  meta.service = { baseUrl, bootRssMiB: (await memoryOf(server.pid)).rssMiB };

  // Funded managed accounts: donations rotate over them.
  const accounts = [];
  for (let i = 0; i < 8; i++) {
    const created = await json(baseUrl, apiKey, 'POST', '/v1/api/accounts', {});
    const pk = created.body.publicKey;
    const airdrop = await json(baseUrl, apiKey, 'POST', `/v1/api/accounts/${pk}/airdrop`, {
      currency: 'SOL',
      amount: '1000',
    });
    if (airdrop.status !== 200) throw new Error(`airdrop failed: ${JSON.stringify(airdrop.body)}`);
    accounts.push(pk);
  }
  // A donation to track, settled (the common case for a tracking read).
  const tracked = await json(baseUrl, apiKey, 'POST', '/v1/api/donate/sol', {
    account: accounts[0],
    amount: '0.5',
    priority: 'Medium',
  });
  const trackId = tracked.body.transactionId;
  for (let i = 0; i < 200; i++) {
    const t = await json(baseUrl, apiKey, 'GET', `/v1/api/transaction/track/${trackId}`);
    if (t.body.status === 'finalized') break;
    await new Promise((r) => setTimeout(r, 250));
  }

  // 3a. Read route: tracking, at peak, then at half the peak rate.
  if (wants('track')) {
    const url = `${baseUrl}/v1/api/transaction/track/${trackId}`;
    await cannon({ url, headers, duration: 2 });
    const r = summary(await phase('track', () => cannon({ url, headers })));
    const ceiling = results['bare-hono'].reqPerSec;
    results.track = {
      reqPerSec: r.reqPerSec,
      p50Ms: r.p50Ms,
      p99Ms: r.p99Ms,
      ceilingReqPerSec: ceiling,
      ratio: r.reqPerSec / ceiling,
    };
    meta.track = r;
    const half = summary(
      await cannon({ url, headers, overallRate: Math.max(1, Math.floor(r.reqPerSec / 2)) }),
    );
    results['track@half-peak-rate'] = {
      reqPerSec: half.reqPerSec,
      p50Ms: half.p50Ms,
      p99Ms: half.p99Ms,
      ceilingReqPerSec: r.reqPerSec,
      ratio: half.reqPerSec / r.reqPerSec,
    };
    meta.trackHalfRate = half;
    const even = await phase('track-paced', () =>
      paced(url, headers, Math.max(1, r.reqPerSec / 2), DURATION),
    );
    results['track@half-peak-rate-paced'] = {
      reqPerSec: even.reqPerSec,
      p50Ms: even.p50Ms,
      p99Ms: even.p99Ms,
      ceilingReqPerSec: r.reqPerSec,
      ratio: even.reqPerSec / r.reqPerSec,
    };
    meta.trackHalfRatePaced = even;
    log(
      `track: ${round(r.reqPerSec, 0)} req/s, p99 ${r.p99Ms} ms; at half rate p99 ${half.p99Ms} ms (autocannon overallRate), ${round(even.p99Ms, 1)} ms (paced)`,
    );
  }

  // 3b. Interface B: the quote (a read) and the firm-quote prepare, with an OAuth access token.
  const swapSetup = wants('swap')
    ? await (async () => {
        const exists = (await fetch(`${baseUrl}/v1/project/swap?tokenPair=SOL-USDC&amount=1`)).status !== 404;
        let token;
        let tokenError;
        if (exists) {
          try {
            token = await runTsx('oauth-token.ts', [baseUrl, ADMIN_TOKEN]);
            // The wallet pays the swap's input: fund it through interface A's localnet airdrop.
            await json(baseUrl, apiKey, 'POST', `/v1/api/accounts/${token.wallet}/airdrop`, {
              currency: 'SOL',
              amount: '1000',
            });
          } catch (error) {
            tokenError = String(error.message ?? error)
              .split('\n')[0]
              .slice(0, 200);
          }
        }
        const bHeaders = token
          ? { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' }
          : undefined;
        const measures = [
          ['swap-quote', 'bare-hono', { url: `${baseUrl}/v1/project/swap?tokenPair=SOL-USDC&amount=1.5` }],
          [
            'swap-prepare',
            'raw-litesvm',
            {
              url: baseUrl,
              requests: [
                {
                  method: 'POST',
                  path: '/v1/project/swap',
                  setupRequest: (req) => {
                    swapN++;
                    // Distinct amounts from 0.001 SOL up (smaller ones would quote zero USDC out): every
                    // prepare is a fresh firm quote, and a fresh transaction.
                    return {
                      ...req,
                      body: JSON.stringify({
                        tokenPair: 'SOL-USDC',
                        amount: lamportsToSol(1_000_000 + swapN),
                      }),
                    };
                  },
                  onResponse: (status, body) => noteStatus('swap-prepare', status, body),
                },
              ],
            },
          ],
        ];
        let swapN = 0;
        return { measures, bHeaders, exists, token, tokenError };
      })()
    : undefined;

  // Measured in the order of the issue: the quote before the donation run, the prepare after it
  // (each prepare is a firm quote that stays pending: measured last so it cannot slow the others).
  const measureSwaps = async (only) => {
    if (!swapSetup) return;
    const { measures, bHeaders, exists, token, tokenError } = swapSetup;
    for (const [name, ceilingName, opts] of measures.filter(([n]) => n === only)) {
      const ceiling = results[ceilingName].reqPerSec;
      if (!exists || !token) {
        const reason = !exists
          ? 'not built yet (the route answers 404)'
          : `not measured: no OAuth access token (${tokenError})`;
        results[name] = {
          reqPerSec: null,
          p50Ms: null,
          p99Ms: null,
          ceilingReqPerSec: ceiling,
          ratio: null,
          skipped: reason,
        };
        log(`${name}: skipped, ${reason}`);
        continue;
      }
      const probe = await fetch(opts.url + (opts.requests ? '/v1/project/swap' : ''), {
        method: opts.requests ? 'POST' : 'GET',
        headers: bHeaders,
        ...(opts.requests ? { body: JSON.stringify({ tokenPair: 'SOL-USDC', amount: '0.5' }) } : {}),
      });
      if (probe.status !== 200) {
        const reason = `not measured: a single call answered ${probe.status} ${(await probe.text()).slice(0, 160)}`;
        results[name] = {
          reqPerSec: null,
          p50Ms: null,
          p99Ms: null,
          ceilingReqPerSec: ceiling,
          ratio: null,
          skipped: reason,
        };
        log(`${name}: skipped, ${reason}`);
        continue;
      }
      const r = summary(await phase(name, () => cannon({ ...opts, headers: bHeaders })));
      results[name] = {
        reqPerSec: r.reqPerSec,
        p50Ms: r.p50Ms,
        p99Ms: r.p99Ms,
        ceilingReqPerSec: ceiling,
        ratio: r.reqPerSec / ceiling,
      };
      meta[name] = r;
      if (r.non2xx > 0 || r.errors > 0)
        meta.notes.push(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors/timeouts`);
      log(`${name}: ${round(r.reqPerSec, 0)} req/s, p99 ${r.p99Ms} ms (${r.non2xx} non-2xx)`);
    }
  };
  await measureSwaps('swap-quote');

  // 3c. Donation end to end: every request a fresh transfer (rotating accounts, distinct amounts).
  if (wants('donate')) {
    let n = 0;
    const ids = new Set();
    let ok = 0;
    const requests = [
      {
        method: 'POST',
        path: '/v1/api/donate/sol',
        headers,
        setupRequest: (req) => {
          n++;
          const amount = lamportsToSol(n);
          return {
            ...req,
            body: JSON.stringify({ account: accounts[n % accounts.length], amount, priority: 'Medium' }),
          };
        },
        onResponse: (status, body) => {
          noteStatus('donate-sol', status, body);
          if (status !== 200) return;
          ok++;
          try {
            ids.add(JSON.parse(body).transactionId);
          } catch {}
        },
      },
    ];
    const r = summary(await phase('donate', () => cannon({ url: baseUrl, requests })));
    const ceiling = results['raw-litesvm'].reqPerSec;
    results['donate-sol'] = {
      reqPerSec: r.reqPerSec,
      p50Ms: r.p50Ms,
      p99Ms: r.p99Ms,
      ceilingReqPerSec: ceiling,
      ratio: r.reqPerSec / ceiling,
    };
    meta.donate = { ...r, accepted: ok, distinctTransactionIds: ids.size };
    if (r.non2xx > 0 || r.errors > 0)
      meta.notes.push(`donate-sol: ${r.non2xx} non-2xx answers, ${r.errors} errors/timeouts`);
    log(
      `donate SOL: ${round(r.reqPerSec, 0)} req/s, p99 ${r.p99Ms} ms (${ok} accepted, ${ids.size} distinct ids)`,
    );
  }

  await measureSwaps('swap-prepare');

  const memory = await memoryOf(server.pid);
  meta.service.peakRssMiB = memory.peakMiB;
  meta.service.rssSamplesMiB = {
    min: round(Math.min(...rssSamples)),
    max: round(Math.max(...rssSamples)),
    last: round(rssSamples.at(-1)),
  };
} finally {
  clearInterval(sampler);
  await stopChild(server, profileDir ? 'SIGINT' : 'SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
}
if (profileDir) {
  const files = (await readdir(profileDir)).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length) {
    const file = join(profileDir, files[0]);
    meta.profile = { file, phases: {} };
    for (const [name, window] of Object.entries(phases))
      meta.profile.phases[name] = { window, ...(await summarizeProfile(file, 40, window)) };
  }
}

// 4. Tracking at scale.
if (!flag('skip-scale')) {
  log(
    'scale run: tracking sweeps over 10 / 1,000 / 10,000 unsettled transactions (populating takes a while)...',
  );
  meta.scale = (await runNode('scale.mjs', [option('scale', '10,1000,10000')])).runs;
}

// ------------------------------------------------------------------------------------------------
// Report

const row = (cells, widths) => cells.map((c, i) => String(c ?? '').padEnd(widths[i])).join(' | ');
const widths = [28, 10, 8, 8, 12, 7];
const lines = [
  row(['measure', 'req/s', 'p50 ms', 'p99 ms', 'ceiling/s', 'ratio'], widths),
  widths.map((w) => '-'.repeat(w)).join('-|-'),
];
for (const [name, m] of Object.entries(results)) {
  lines.push(
    row(
      [
        name,
        m.skipped ? 'skipped' : round(m.reqPerSec, 0),
        round(m.p50Ms, 2),
        round(m.p99Ms, 2),
        round(m.ceilingReqPerSec, 0),
        m.ratio === null ? '' : round(m.ratio, 3),
      ],
      widths,
    ),
  );
}
log('');
log(lines.join('\n'));
log('');
log(
  `service peak RSS ${round(meta.service.peakRssMiB)} MiB (RSS sampled every 250 ms: ${meta.service.rssSamplesMiB.min}-${meta.service.rssSamplesMiB.max} MiB)`,
);
const targets = {
  readRoutesAtLeastHalfOfBareHono: results.track ? results.track.ratio >= 0.5 : null,
  donationAtLeastHalfOfRawLiteSvm: results['donate-sol'] ? results['donate-sol'].ratio >= 0.5 : null,
  readP99Under20MsAtHalfPeak: results['track@half-peak-rate']
    ? results['track@half-peak-rate'].p99Ms < 20
    : null,
  readP99Under20MsAtHalfPeakPaced: results['track@half-peak-rate-paced']
    ? results['track@half-peak-rate-paced'].p99Ms < 20
    : null,
};
meta.targets = targets;
for (const [k, v] of Object.entries(targets))
  log(`target ${k}: ${v === null ? 'not measured' : v ? 'met' : 'MISSED'}`);
if (meta.scale) {
  log('');
  log('tracking sweep cost (chain calls per sweep; ms per sweep):');
  for (const run of meta.scale) {
    if (run.perDonation) {
      const calls = Object.entries(run.perDonation.chainCalls)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      log(
        `  ${String(run.pending).padStart(6)} unsettled | populated by core's donate in-process: ${round(run.populateMsPerDonation, 2)} ms each; per donation ${run.perDonation.sqlStatements} SQL statements, chain ${calls}`,
      );
    }
    for (const s of run.sweeps) {
      const calls = Object.entries(s.chainCalls)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      log(
        `  ${String(run.pending).padStart(6)} unsettled | ${s.what.padEnd(38)} | ${String(round(s.ms, 0)).padStart(6)} ms | ${calls}`,
      );
    }
  }
}
if (meta.profile) {
  for (const [name, p] of Object.entries(meta.profile.phases)) {
    log('');
    log(`CPU profile of the service during "${name}" (${p.totalMs} ms sampled), top self time:`);
    for (const f of p.top.slice(0, 15)) log(`  ${String(f.selfPct).padStart(5)}%  ${f.name}  ${f.where}`);
    log(
      `  by package: ${p.byPackage
        .slice(0, 8)
        .map((x) => `${x.package} ${x.selfPct}%`)
        .join(', ')}`,
    );
  }
  log(`(profile: ${meta.profile.file})`);
}

meta.otherAnswers = otherAnswers;
for (const [k, v] of Object.entries(otherAnswers)) log(`note: ${k} x${v.count}, e.g. ${v.example}`);

// A partial run (--only) must not overwrite the full run's results.
const suffix = ONLY ? `.${ONLY}` : flag('profile') ? '.profile' : '';
await writeFile(join(here, `results${suffix}.json`), `${JSON.stringify(results, null, 2)}\n`);
await writeFile(join(here, `results${suffix}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
log(`\nwrote bench/results${suffix}.json and bench/results${suffix}.meta.json`);
