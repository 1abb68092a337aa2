// Scale run of transaction tracking: the cost of one confirmation sweep (core's `sweepUnsettled`,
// and the worker's leased `trackingPass`) over 10, 1,000 and 10,000 unsettled transactions, with
// chain calls counted by a wrapper around the chain port. Real adapters: the in-process chain on the localnet, pg store on
// an in-memory PGlite. The transactions are real donations made through core's `donate`.
// Prints one JSON line.
//
//   node bench/scale.mjs [10,1000,10000]
import { importFrom } from './resolve.mjs';

const load = (name) => importFrom('apps/server', name);
const core = await load('@token-actions/core');
const testing = await load('@token-actions/core/testing');
const adapters = await load('@token-actions/adapters');
const { createLocalnet } = await importFrom('packages/runtime', '@token-actions/localnet');

const sizes = (process.argv[2] ?? '10,1000,10000').split(',').map(Number);

/** Wraps a port so every method call is counted by name. */
function counting(port) {
  const calls = {};
  const proxy = new Proxy(port, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args) => {
        calls[prop] = (calls[prop] ?? 0) + 1;
        return value.apply(target, args);
      };
    },
  });
  return {
    proxy,
    take() {
      const out = { ...calls };
      for (const k of Object.keys(calls)) delete calls[k];
      return out;
    },
  };
}

function unwrap(result, what) {
  if (result.isErr()) throw new Error(`${what}: ${result.error.code} ${result.error.message}`);
  return result.value;
}

async function deployment() {
  const localnet = await createLocalnet({ slotIntervalMs: 0, finalityDepthSlots: 32 });
  const chain = adapters.createInProcessChain(localnet);
  const rawSql = await adapters.createPgliteClient({});
  await adapters.migrate(rawSql);
  // Statements sent to the database, counted (inside transactions too).
  const sqlCount = { statements: 0, transactions: 0 };
  const countQueries = (executor) => ({
    ...executor,
    query: (...a) => {
      sqlCount.statements++;
      return executor.query(...a);
    },
  });
  const sql = {
    ...countQueries(rawSql),
    transaction: (fn) => {
      sqlCount.transactions++;
      return rawSql.transaction((tx) => fn(countQueries(tx)));
    },
    close: () => rawSql.close(),
  };
  const clock = { now: () => new Date() };
  const store = adapters.createPgStore(sql, { clock });
  const keystore = testing.createInMemoryKeystore();
  const named = async (name) => unwrap(await keystore.named(name), name);
  const accounts = {
    treasury: await named('treasury'),
    escrowVault: await named('escrow-vault'),
    mintAuthority: await named('mint-authority'),
  };
  localnet.fund(accounts.treasury, 1_000_000n * 1_000_000_000n);
  const sender = unwrap(await keystore.create(), 'sender');
  localnet.fund(sender, 1_000_000n * 1_000_000_000n);
  const counted = counting(chain);
  const deps = {
    chain: counted.proxy,
    keystore,
    store,
    fees: adapters.createFeeOracle({ chain }),
    clock,
    ids: testing.createRandomIds(),
    mac: testing.createTestMac(),
    currencies: localnet.currencies,
    accounts,
    policies: { previewTtlMs: 120_000, escrowTtlMs: 7 * 24 * 3_600_000, escrowExpiryAction: 'refund' },
  };
  return { chain, localnet, sql, store, deps, sender, counted, sqlCount };
}

async function timed(fn) {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

const runs = [];
for (const n of sizes) {
  const d = await deployment();
  // n real donations, each recorded (pending) then sent, as the HTTP route does.
  d.sqlCount.statements = 0;
  d.sqlCount.transactions = 0;
  const populate = await timed(async () => {
    for (let i = 0; i < n; i++) {
      const amount = core.formatAmount(BigInt(i + 1), 9);
      unwrap(
        await core.donate(
          d.deps,
          { currency: 'SOL', account: d.sender, amount, priority: 'Min' },
          { tenant: core.DEFAULT_TENANT_ACCESS },
        ),
        'donate',
      );
    }
  });
  const donateCalls = d.counted.take();
  const perDonation = {
    sqlStatements: d.sqlCount.statements / n,
    sqlTransactions: d.sqlCount.transactions / n,
    chainCalls: Object.fromEntries(Object.entries(donateCalls).map(([k, v]) => [k, v / n])),
  };

  // 1. Every record is pending; the chain has them landed: each sweep moves all of them.
  const first = await timed(() => core.sweepUnsettled(d.deps).then((r) => unwrap(r, 'sweep')));
  const firstCalls = d.counted.take();
  // 2. Nothing changed on chain since: a steady-state sweep (all checked, none moved).
  const steady = await timed(() => core.sweepUnsettled(d.deps).then((r) => unwrap(r, 'sweep')));
  const steadyCalls = d.counted.take();
  // 3. The worker's own pass: lease the batch, rebroadcast what is pending, reconcile.
  let pass;
  let passCalls;
  if (core.trackingPass) {
    pass = await timed(() =>
      core.trackingPass(d.deps, { owner: 'bench', leaseMs: 1 }).then((r) => unwrap(r, 'trackingPass')),
    );
    passCalls = d.counted.take();
  }
  // 4. Finality reached for all: every record moves to finalized.
  d.localnet.tick(40);
  const settle = await timed(() => core.sweepUnsettled(d.deps).then((r) => unwrap(r, 'sweep')));
  const settleCalls = d.counted.take();

  runs.push({
    pending: n,
    populateMsPerDonation: populate.ms / n,
    perDonation,
    sweeps: [
      { what: 'sweep, all pending -> processed', ms: first.ms, ...first.value, chainCalls: firstCalls },
      { what: 'sweep, steady (nothing moved)', ms: steady.ms, ...steady.value, chainCalls: steadyCalls },
      ...(pass
        ? [
            {
              what: 'worker trackingPass (leased), steady',
              ms: pass.ms,
              ...pass.value,
              chainCalls: passCalls,
            },
          ]
        : []),
      { what: 'sweep, all -> finalized', ms: settle.ms, ...settle.value, chainCalls: settleCalls },
    ],
  });
  d.localnet.close();
  await d.sql.close();
}
console.log(JSON.stringify({ runs }));
