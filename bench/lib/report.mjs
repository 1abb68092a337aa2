// The report: the table, the targets, the scale run and the profile; then the results files.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DATABASE, flag, log, ONLY } from './cli.mjs';
import { otherAnswers, round } from './load.mjs';
import { here } from './processes.mjs';

export async function report(results, meta) {
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
  if (meta.service?.rssSamplesMiB)
    log(
      `service peak RSS ${round(meta.service.peakRssMiB)} MiB (RSS sampled every 250 ms: ${meta.service.rssSamplesMiB.min}-${meta.service.rssSamplesMiB.max} MiB)`,
    );
  if (meta.settledMs && Object.keys(meta.settledMs).length > 0)
    log(
      `waited for the worker to settle before: ${Object.entries(meta.settledMs)
        .map(([name, ms]) => `${name} ${ms} ms`)
        .join(', ')}`,
    );
  const targets = {
    readRoutesAtLeastHalfOfBareHono: results.track ? results.track.ratio >= 0.5 : null,
    donationAtLeastHalfOfRawLiteSvm: results['donate-sol'] ? results['donate-sol'].ratio >= 0.5 : null,
    // The performance floors: donation >= 0.10 of raw LiteSVM, swap prepare >= 0.05 of it.
    donationAtLeastTenthOfRawLiteSvm: results['donate-sol'] ? results['donate-sol'].ratio >= 0.1 : null,
    swapPrepareAtLeastTwentiethOfRawLiteSvm: results['swap-prepare']
      ? results['swap-prepare'].ratio >= 0.05
      : null,
    memoryPeakUnder300MiB: typeof meta.memory?.withinBudget === 'boolean' ? meta.memory.withinBudget : null,
    readP99Under20MsAtHalfPeak: results['track@half-peak-rate']
      ? results['track@half-peak-rate'].p99Ms < 20
      : null,
    readP99Under20MsAtHalfPeakPaced: results['track@half-peak-rate-paced']
      ? results['track@half-peak-rate-paced'].p99Ms < 20
      : null,
    // The quote route against the HTTP ceiling, and the open-loop donation latency.
    swapQuoteAtLeastHalfOfBareHono: results['swap-quote']?.ratio ? results['swap-quote'].ratio >= 0.5 : null,
    donationP99Under50MsAtHalfPeakOpenLoop: results['donate-sol@half-peak-rate-open-loop']
      ? results['donate-sol@half-peak-rate-open-loop'].p99Ms < 50
      : null,
    donationsAfter1000OpenQuotesWithin20Pct: results['donate-sol@after-1000-open-quotes']
      ? results['donate-sol@after-1000-open-quotes'].ratio >= 0.8
      : null,
    trackingSweepOf10000InAtMost2s: results['tracking-sweep-10000']
      ? results['tracking-sweep-10000'].sweepMs <= 2_000
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
  // A PostgreSQL run must not overwrite the embedded one's either.
  const suffix = `${DATABASE === 'postgres' ? '.postgres' : ''}${ONLY ? `.${ONLY}` : flag('profile') ? '.profile' : ''}`;
  await writeFile(join(here, `results${suffix}.json`), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(join(here, `results${suffix}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
  log(`\nwrote bench/results${suffix}.json and bench/results${suffix}.meta.json`);
}
