// `pnpm bench`: the service on its embedded default (LiteSVM + the embedded PostgreSQL server, a child process) under
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
//   node bench/run.mjs --database postgres  (every measure on a fresh PostgreSQL database of DATABASE_URL)

import { machine, measureBareHono, measureRawLiteSvm } from './lib/ceilings.mjs';
import { CONNECTIONS, DATABASE, DURATION, flag, log, ONLY, option, USAGE, wants } from './lib/cli.mjs';
import { measureSweep } from './lib/measures.mjs';
import { measureMemory } from './lib/memory.mjs';
import { runNode } from './lib/processes.mjs';
import { report } from './lib/report.mjs';
import { measureService, sweepDatabase } from './lib/service.mjs';

if (flag('help')) {
  log(USAGE);
  process.exit(0);
}

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

if (ONLY !== 'sweep') {
  // 1. Ceiling of the HTTP stack.
  await measureBareHono(results, meta);

  // 2. Ceiling of the chain.
  await measureRawLiteSvm(results, meta);

  // 3. The service on its embedded default (or on PostgreSQL with --database postgres).
  await measureService(results, meta);

  // Peak memory (PSS of the server and its children) under donation load, on the embedded default.
  if (DATABASE === 'embedded' && (wants('donate') || ONLY === 'memory')) await measureMemory(meta);
}

// 4. The tracking sweep that moves 10,000 records, on the same kind of database.
if (!flag('skip-sweep') && (ONLY === undefined || ONLY === 'sweep')) {
  await measureSweep(results, meta, sweepDatabase());
}

// 5. Tracking at scale.
if (!flag('skip-scale') && ONLY !== 'sweep') {
  log(
    'scale run: tracking sweeps over 10 / 1,000 / 10,000 unsettled transactions (populating takes a while)...',
  );
  meta.scale = (await runNode('scale.mjs', [option('scale', '10,1000,10000')])).runs;
}

await report(results, meta);
