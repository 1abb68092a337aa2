// The service on its embedded default (a child process): start it, fund accounts, run the
// measures, stop it, and cut its CPU profile by phase.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarizeProfile } from '../profile.mjs';
import { importFrom } from '../resolve.mjs';
import { DATABASE, flag, ONLY, POSTGRES_URL, wants } from './cli.mjs';
import { json, round } from './load.mjs';
import {
  measureDonate,
  measureDonateAfterOpenQuotes,
  measureDonateHalfRate,
  measureTrack,
} from './measures.mjs';
import { freePort, memoryOf, root, serverNodeFlags, startChild, stopChild } from './processes.mjs';
import { measureSwaps, prepareSwaps } from './swaps.mjs';

/**
 * A fresh PostgreSQL database on POSTGRES_URL's server (`--database postgres`): its URL, and
 * `drop()` to remove it afterwards.
 */
export async function freshPostgresDatabase(label) {
  const { default: pg } = await importFrom('packages/adapters', 'pg');
  const name = `ta_bench_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Waits until the service's worker has settled every transaction sent so far: the worker lag on
 * `/metrics` (age of the oldest pending, processed or confirmed transaction) reads 0. Answers how
 * long that took, in ms.
 */
async function settle(baseUrl, adminToken, timeoutMs = 120_000) {
  const from = performance.now();
  for (;;) {
    const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } });
    const text = await res.text();
    const lag = /^token_actions_worker_lag_seconds (\S+)$/m.exec(text)?.[1];
    if (res.status !== 200 || lag === undefined)
      throw new Error(`settle: /metrics answered ${res.status} without the worker lag`);
    if (Number(lag) === 0) return performance.now() - from;
    if (performance.now() - from > timeoutMs)
      throw new Error(`settle: the worker lag is still ${lag} s after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The database of the sweep measure: the one `--database` names, fresh. */
export function sweepDatabase() {
  return {
    name: DATABASE === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'embedded PostgreSQL',
    async open() {
      const adapters = await importFrom('apps/server', '@token-actions/adapters');
      if (DATABASE === 'postgres') {
        const db = await freshPostgresDatabase('sweep');
        const sql = adapters.createPostgresClient({ connectionString: db.url });
        return {
          sql,
          async close() {
            await sql.close();
            await db.drop();
          },
        };
      }
      const dir = await mkdtemp(join(tmpdir(), 'token-actions-sweep-'));
      const sql = await adapters.createEmbeddedPostgresClient({ dataDir: join(dir, 'postgres') });
      return {
        sql,
        async close() {
          await sql.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

export async function measureService(results, meta) {
  const dataDir = await mkdtemp(join(tmpdir(), 'token-actions-bench-'));
  const postgres = DATABASE === 'postgres' ? await freshPostgresDatabase('service') : undefined;
  meta.database = postgres ? 'postgres' : 'embedded';
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
      ...(await serverNodeFlags()),
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
        // The open-quotes measure holds 1,000 unexecuted firm quotes from one client.
        SWAP_MAX_OPEN_QUOTES_PER_CLIENT: '100000',
        ...(process.env.BENCH_RUN_WORKER ? { RUN_WORKER: process.env.BENCH_RUN_WORKER } : {}),
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
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

    const ctx = { results, meta, phase, baseUrl, headers, accounts, trackId };
    // Each measure starts once the worker has settled what the ones before it sent, so it pays
    // for its own work only: right after the donation run the worker still has every one of its
    // transactions to move to `finalized` over the next 13 s (the localnet's 32 slots). How long
    // each wait took is reported with the results.
    meta.settledMs = {};
    const settled = async (name) => {
      meta.settledMs[name] = round(await settle(baseUrl, ADMIN_TOKEN), 0);
    };

    // 3a. Read route: tracking, at peak, then at half the peak rate.
    if (wants('track')) await measureTrack(ctx);

    // 3b. Interface B: the quote before the donation run, the prepare after it.
    // `--only open-quotes`: the donation rate before and after 1,000 unexecuted firm quotes.
    const openQuotes = ONLY === undefined || ONLY === 'open-quotes';
    const swapSetup =
      wants('swap') || openQuotes
        ? await prepareSwaps({ baseUrl, apiKey, adminToken: ADMIN_TOKEN })
        : undefined;
    if (swapSetup && wants('swap')) await measureSwaps(ctx, swapSetup, 'swap-quote');

    // 3c. Donation end to end, then at half its peak rate (open loop).
    if (wants('donate') || openQuotes) {
      await settled('donate');
      await measureDonate(ctx);
    }
    if (wants('donate')) {
      await settled('donate-half-rate');
      await measureDonateHalfRate(ctx);
    }

    // 3d. Donations after 1,000 unexecuted firm quotes, against the rate just before them: before
    // the swap prepare, whose own firm quotes (several thousand) stay open too.
    if (swapSetup && openQuotes) await measureDonateAfterOpenQuotes(ctx, swapSetup, settled);

    if (swapSetup && wants('swap')) {
      await settled('swap-prepare');
      await measureSwaps(ctx, swapSetup, 'swap-prepare');
    }

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
    await postgres?.drop();
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
}
