/**
 * Soak: bounded mixed traffic against interface A on one or more servers, loopback only. Not part
 * of CI. It reports 5xx answers, lost and duplicated transactions (every accepted donation, payment
 * and signature is tracked until it is finalized, failed or expired; ids must be unique), and the
 * servers' memory over time.
 *
 *   # drive servers that are already running (their RSS is read when their pids are given)
 *   tsx scripts/soak.ts --urls http://127.0.0.1:8787,http://127.0.0.1:8788 --api-key ta_... [--pids 123,456]
 *
 *   # start the at-scale topology itself: a localnet process (JSON-RPC), two servers and one
 *   # standalone worker on PostgreSQL and Redis (use a scratch database: the soak writes to it)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/soak REDIS_URL=redis://127.0.0.1:6379 \
 *     tsx scripts/soak.ts --spawn 2
 *
 *   # or one server on the embedded default (LiteSVM + PGlite), for a quick local look
 *   tsx scripts/soak.ts --spawn 1 --embedded --duration 1m
 *
 * Options: --duration 5m (default; also 90s, 300), --rate 40 (requests per second, all servers),
 * --settle 90s (how long to wait for the last transactions to reach a terminal status).
 * Environment: SOAK_URLS, SOAK_API_KEY, SOAK_DURATION, SOAK_RATE stand in for the flags.
 * Exits 1 when any 5xx, lost or duplicated transaction was seen.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const option = (name: string, env?: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  if (i >= 0 && args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) return args[i + 1];
  return env ? process.env[env] : undefined;
};
const flag = (name: string) => args.includes(`--${name}`);

function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`bad duration "${text}" (use e.g. 300, 90s, 5m)`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[m[2] ?? 's'];
  return Number(m[1]) * unit!;
}

const DURATION_MS = parseDuration(option('duration', 'SOAK_DURATION') ?? '5m');
const RATE = Number(option('rate', 'SOAK_RATE') ?? 40);
const SETTLE_MS = parseDuration(option('settle') ?? '90s');
const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

// -------------------------------------------------------------------------------------------------
// Servers

interface Server {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly pid?: number;
}

const children: ChildProcess[] = [];
/** Processes of the topology that exited before the soak stopped them. */
const crashes: string[] = [];
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
    'packages/adapters/dist/localnet.js',
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

async function resolveServers(): Promise<{ servers: Server[]; workerPids: number[] }> {
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

// -------------------------------------------------------------------------------------------------
// Traffic

interface Answer {
  status: number;
  json: Record<string, unknown> & { message?: string; transactionId?: string };
  headers: Headers;
}

const stats = {
  sent: 0,
  byStatus: new Map<string, number>(),
  fiveXx: [] as string[],
  networkErrors: 0,
  accepted: 0,
  replays: 0,
};

async function call(
  server: Server,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer | undefined> {
  stats.sent++;
  const label = path.replace(/\/[1-9A-HJ-NP-Za-km-z]{32,88}/g, '/{id}').replace(/\?.*$/, '');
  try {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    const key = `${method} ${label} ${res.status}`;
    stats.byStatus.set(key, (stats.byStatus.get(key) ?? 0) + 1);
    if (res.status >= 500) stats.fiveXx.push(`${method} ${path} -> ${res.status} ${text.slice(0, 200)}`);
    let json: Answer['json'] = {};
    try {
      json = JSON.parse(text) as Answer['json'];
    } catch {
      // not JSON: only the status counts
    }
    return { status: res.status, json, headers: res.headers };
  } catch (error) {
    stats.networkErrors++;
    const key = `${method} ${label} network-error`;
    stats.byStatus.set(key, (stats.byStatus.get(key) ?? 0) + 1);
    if (stats.networkErrors <= 5) log(`network error: ${method} ${path}: ${(error as Error).message}`);
    return undefined;
  }
}

/** Every accepted transaction: where it came from and what tracking last said. */
interface Tracked {
  readonly kind: string;
  readonly server: number;
  status: string;
  notFound: number;
}
const transactions = new Map<string, Tracked>();
const duplicates: string[] = [];

function accept(id: unknown, kind: string, server: number, replay = false) {
  if (typeof id !== 'string') return;
  if (replay) {
    stats.replays++;
    if (!transactions.has(id)) duplicates.push(`replay returned an id never seen before: ${id}`);
    return;
  }
  stats.accepted++;
  if (transactions.has(id))
    duplicates.push(`${kind}: id ${id} already returned for ${transactions.get(id)!.kind}`);
  else transactions.set(id, { kind, server, status: 'pending', notFound: 0 });
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
let amountCounter = 0;
/** A fresh amount each time (base units), so no two transfers are the same transaction. */
const freshAmount = (decimals: number) => {
  amountCounter++;
  const units = String(1_000 + amountCounter).padStart(decimals + 1, '0');
  return `${units.slice(0, -decimals)}.${units.slice(-decimals)}`.replace(/\.?0+$/, '');
};

async function oneRequest(servers: Server[], accounts: string[], merchants: string[]) {
  const s = Math.floor(Math.random() * servers.length);
  const server = servers[s]!;
  const r = Math.random();
  const account = pick(accounts);
  if (r < 0.35) {
    const currency = pick(['sol', 'usdc']);
    const body = {
      account,
      amount: freshAmount(currency === 'sol' ? 9 : 6),
      priority: pick(['Min', 'Low', 'Medium', 'High', 'VeryHigh']),
    };
    if (Math.random() < 0.3) {
      // With an Idempotency-Key, retried on another server: one transaction, the same answer.
      const key = `soak-${randomBytes(8).toString('hex')}`;
      const first = await call(server, 'POST', `/v1/api/donate/${currency}`, body, {
        'idempotency-key': key,
      });
      if (first?.status === 200) accept(first.json.transactionId, 'donation', s);
      const other = (s + 1) % servers.length;
      const again = await call(servers[other]!, 'POST', `/v1/api/donate/${currency}`, body, {
        'idempotency-key': key,
      });
      if (again?.status === 200) {
        if (again.json.transactionId !== first?.json.transactionId)
          duplicates.push(
            `idempotent retry gave ${again.json.transactionId} after ${first?.json.transactionId}`,
          );
        accept(again.json.transactionId, 'donation', other, true);
      }
    } else {
      const res = await call(server, 'POST', `/v1/api/donate/${currency}`, body);
      if (res?.status === 200) accept(res.json.transactionId, 'donation', s);
    }
  } else if (r < 0.6) {
    const ids = [...transactions.keys()];
    if (ids.length) await call(server, 'GET', `/v1/api/transaction/track/${pick(ids)}`);
  } else if (r < 0.7) {
    await call(server, 'GET', `/v1/api/accounts/${account}`);
  } else if (r < 0.8) {
    const details = { currency: 'SOL', amount: freshAmount(9), priority: 'Low' };
    const preview = await call(server, 'POST', '/v1/api/transaction/preview', {
      account,
      transactionType: 'donation',
      details,
    });
    if (preview?.status === 200 && Math.random() < 0.6) {
      const signBody = { account, transactionType: 'donation', details, preview: preview.json.preview };
      const signed = await call(server, 'POST', '/v1/api/transaction/sign', signBody);
      if (signed?.status === 200) accept(signed.json.transactionId, 'signed donation', s);
      if (signed?.status === 200 && Math.random() < 0.3) {
        // Signing the same preview again (on another server) returns the same transaction.
        const other = (s + 1) % servers.length;
        const again = await call(servers[other]!, 'POST', '/v1/api/transaction/sign', signBody);
        if (again?.status === 200) {
          if (again.json.transactionId !== signed.json.transactionId)
            duplicates.push(
              `second sign gave ${again.json.transactionId} after ${signed.json.transactionId}`,
            );
          accept(again.json.transactionId, 'signed donation', other, true);
        }
      }
    }
  } else if (r < 0.9) {
    const merchant = Math.random() < 0.5;
    const res = await call(server, 'POST', merchant ? '/v1/api/merchant/payment' : '/v1/api/charity/donate', {
      [merchant ? 'merchant' : 'charity']: pick(merchants),
      amount: freshAmount(6),
      currency: 'USDC',
      account,
      useEscrow: Math.random() < 0.3,
      priority: 'Low',
    });
    if (res?.status === 200)
      accept(res.json.transactionId, merchant ? 'merchant payment' : 'charity donation', s);
  } else {
    // Bad input: must be a 4xx, never a 5xx.
    const bad = pick<[string, string, unknown]>([
      ['POST', '/v1/api/donate/sol', { account, amount: '1e3', priority: 'Low' }],
      ['POST', '/v1/api/donate/sol', { account: 'not-a-key', amount: '1', priority: 'Low' }],
      ['POST', '/v1/api/donate/usdc', '{"account":'],
      ['GET', '/v1/api/transaction/track/not-a-signature', undefined],
      [
        'POST',
        '/v1/api/transaction/sign',
        { account, transactionType: 'donation', details: {}, preview: 'v1.x.y' },
      ],
    ]);
    await call(server, bad[0], bad[1], bad[2]);
  }
}

const TERMINAL = new Set(['finalized', 'failed', 'expired']);

async function trackAll(servers: Server[], limit = 200) {
  const open = [...transactions.entries()].filter(([, t]) => !TERMINAL.has(t.status)).slice(0, limit);
  await Promise.all(
    open.map(async ([id, t]) => {
      // Any server answers for any transaction: they share the store.
      const res = await call(
        servers[(t.server + 1) % servers.length]!,
        'GET',
        `/v1/api/transaction/track/${id}`,
      );
      if (res?.status === 200 && typeof res.json.status === 'string') t.status = res.json.status;
      else if (res?.status === 404) t.notFound++;
    }),
  );
}

async function rssOf(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kb = status ? /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] : undefined;
  return kb ? Number(kb) / 1024 : undefined;
}

// -------------------------------------------------------------------------------------------------

async function main() {
  const { servers, workerPids } = await resolveServers();
  log(
    `soak: ${servers.length} server(s) ${servers.map((s) => s.baseUrl).join(', ')}; ${RATE} req/s for ${DURATION_MS / 1000}s`,
  );

  // Funded managed accounts and some beneficiaries.
  const accounts: string[] = [];
  for (let i = 0; i < 8; i++) {
    const s = servers[i % servers.length]!;
    const created = await call(s, 'POST', '/v1/api/accounts', {});
    const pk = created?.json.publicKey as string | undefined;
    if (!pk) throw new Error(`could not create an account: ${JSON.stringify(created?.json)}`);
    for (const [currency, amount] of [
      ['SOL', '500'],
      ['USDC', '100000'],
    ]) {
      const a = await call(s, 'POST', `/v1/api/accounts/${pk}/airdrop`, { currency, amount });
      if (a?.status !== 200) throw new Error(`airdrop failed (${a?.status}): ${JSON.stringify(a?.json)}`);
    }
    accounts.push(pk);
  }
  const merchants = Array.from({ length: 4 }, () => {
    // Fresh beneficiaries: base58 of 32 random bytes.
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    let n = BigInt(`0x${randomBytes(32).toString('hex')}`);
    let out = '';
    while (n > 0n) {
      out = alphabet[Number(n % 58n)] + out;
      n /= 58n;
    }
    return out;
  });

  const pids = [...servers.map((s) => s.pid).filter((p): p is number => p !== undefined), ...workerPids];
  const rss: Array<{ atSec: number; mib: number[] }> = [];
  const started = Date.now();
  const sampler = setInterval(async () => {
    const mib = await Promise.all(pids.map(async (p) => Math.round((await rssOf(p)) ?? -1)));
    rss.push({ atSec: Math.round((Date.now() - started) / 1000), mib });
  }, 5_000);
  const reporter = setInterval(() => {
    const open = [...transactions.values()].filter((t) => !TERMINAL.has(t.status)).length;
    log(
      `${Math.round((Date.now() - started) / 1000)}s: ${stats.sent} requests, ${stats.fiveXx.length} 5xx, ${stats.accepted} accepted, ${open} not yet terminal, rss ${rss.at(-1)?.mib.join('/') ?? '?'} MiB`,
    );
  }, 30_000);

  // Open loop at RATE: a request leaves every 1/RATE s whatever the previous ones are doing.
  const inflight = new Set<Promise<void>>();
  // Tracking polls on its own clock, so it stays a small share of the traffic.
  let tracking: Promise<void> | undefined;
  const tracker = setInterval(() => {
    tracking ??= trackAll(servers, 40).finally(() => {
      tracking = undefined;
    });
  }, 2_000);
  let next = Date.now();
  while (Date.now() - started < DURATION_MS) {
    const p = oneRequest(servers, accounts, merchants).catch((e: unknown) => {
      log(`request failed: ${(e as Error).message}`);
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    next += 1000 / RATE;
    const wait = next - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  await Promise.all(inflight);
  clearInterval(tracker);
  await tracking;

  // Let the last transactions settle.
  log(`traffic done; waiting up to ${SETTLE_MS / 1000}s for every transaction to reach a terminal status`);
  const settleUntil = Date.now() + SETTLE_MS;
  while (Date.now() < settleUntil && [...transactions.values()].some((t) => !TERMINAL.has(t.status))) {
    await trackAll(servers, 500);
    await new Promise((r) => setTimeout(r, 1_000));
  }
  clearInterval(sampler);
  clearInterval(reporter);

  const byStatus = new Map<string, number>();
  for (const t of transactions.values()) byStatus.set(t.status, (byStatus.get(t.status) ?? 0) + 1);
  const lost = [...transactions.entries()].filter(([, t]) => !TERMINAL.has(t.status));
  const everNotFound = [...transactions.entries()].filter(
    ([, t]) => t.notFound > 0 && t.status === 'pending',
  );

  log('');
  log(`requests: ${stats.sent} (${stats.networkErrors} network errors)`);
  for (const [k, v] of [...stats.byStatus.entries()].sort()) log(`  ${k.padEnd(52)} ${v}`);
  log(`5xx answers: ${stats.fiveXx.length}`);
  for (const line of stats.fiveXx.slice(0, 10)) log(`  ${line}`);
  log(
    `transactions accepted: ${stats.accepted} (plus ${stats.replays} idempotent replays / repeated signs that must return the same id)`,
  );
  log(`  final statuses: ${[...byStatus.entries()].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  log(
    `  lost (no terminal status after the settle time): ${lost.length}${
      lost.length
        ? ` e.g. ${lost
            .slice(0, 3)
            .map(([id, t]) => `${id} (${t.kind}, ${t.status}, 404s ${t.notFound})`)
            .join('; ')}`
        : ''
    }`,
  );
  if (everNotFound.length) log(`  unknown to the service (404) while pending: ${everNotFound.length}`);
  log(`  duplicated: ${duplicates.length}`);
  for (const d of duplicates.slice(0, 10)) log(`    ${d}`);
  if (rss.length) {
    log(`RSS (MiB) per process [${pids.join(', ')}] every 5 s:`);
    const step = Math.max(1, Math.floor(rss.length / 12));
    for (let i = 0; i < rss.length; i += step)
      log(`  t=${String(rss[i]!.atSec).padStart(4)}s  ${rss[i]!.mib.join('  ')}`);
    // Warm-up: the first quarter of the run (boot-time allocations are released during it). After
    // it, a least-squares slope per process says whether memory is flat.
    const after = rss.slice(Math.floor(rss.length / 4));
    const base = after[0]!;
    const last = rss.at(-1)!;
    const slopes = pids.map((_, p) => {
      const pts = after.map((s) => [s.atSec / 60, s.mib[p]!] as const).filter(([, y]) => y >= 0);
      const n = pts.length;
      const mx = pts.reduce((a, [x]) => a + x, 0) / n;
      const my = pts.reduce((a, [, y]) => a + y, 0) / n;
      const sxy = pts.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
      const sxx = pts.reduce((a, [x]) => a + (x - mx) ** 2, 0);
      return sxx > 0 ? sxy / sxx : 0;
    });
    log(
      `  after warm-up (t=${base.atSec}s -> t=${last.atSec}s): ${last.mib.map((m, i) => `${m - base.mib[i]!} MiB`).join(', ')}; trend ${slopes.map((v) => `${v.toFixed(1)} MiB/min`).join(', ')}`,
    );
  }
  log(`processes that exited during the soak: ${crashes.length}`);
  const failed = stats.fiveXx.length > 0 || lost.length > 0 || duplicates.length > 0 || crashes.length > 0;
  log(failed ? 'SOAK FAILED' : 'soak passed: no 5xx, nothing lost, nothing duplicated');
  return failed ? 1 : 0;
}

async function cleanup() {
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

process.on('SIGINT', () => {
  void cleanup().then(() => process.exit(130));
});

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error((error as Error).message);
    await cleanup();
    process.exit(2);
  });
