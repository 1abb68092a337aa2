/** The soak's verdict: answers by status, lost and duplicated transactions, memory over time. */
import { readFile } from 'node:fs/promises';
import { log } from './cli.js';
import { crashes } from './topology.js';
import { duplicates, stats, TERMINAL, transactions } from './traffic.js';

export interface RssSample {
  readonly atSec: number;
  readonly mib: number[];
}

export async function rssOf(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kb = status ? /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] : undefined;
  return kb ? Number(kb) / 1024 : undefined;
}

/** Prints the report; 1 when any 5xx, lost or duplicated transaction, or crashed process was seen. */
export function report(pids: readonly number[], rss: readonly RssSample[]): number {
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
