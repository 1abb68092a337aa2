// The machine, and the ceilings of the service's own stack, measured in the same run.
import { readFile } from 'node:fs/promises';
import { cpus, freemem, totalmem } from 'node:os';
import { join } from 'node:path';
import { log, option } from './cli.mjs';
import { cannon, round, summary } from './load.mjs';
import { here, memoryOf, runNode, startChild, stopChild } from './processes.mjs';

export async function machine() {
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

/** A bare Hono route on the same runtime: the ceiling of the read routes. */
export async function measureBareHono(results, meta) {
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

/** Pre-signed transfers sent to LiteSVM in a loop in-process: the ceiling of the donation route. */
export async function measureRawLiteSvm(results, meta) {
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
