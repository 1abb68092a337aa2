import { checkAnswer, describeRequest } from './checks.js';
import type { FuzzContext, StateSnapshot } from './context.js';
import type { FuzzRequest, FuzzResponse } from './http.js';
import type { Generated } from './requests.js';

/**
 * Collects violations across a whole property run instead of stopping at the first one, so one
 * CI run reports every distinct problem (grouped), each with a request that reproduces it.
 */
export class Findings {
  private readonly groups = new Map<string, { count: number; example: string }>();
  readonly statuses = new Map<string, number>();
  readonly timings = new Map<string, { n: number; ms: number }>();

  add(kind: string, example: string) {
    const g = this.groups.get(kind);
    if (g) g.count++;
    else this.groups.set(kind, { count: 1, example });
  }

  time(route: string, ms: number) {
    const t = this.timings.get(route) ?? { n: 0, ms: 0 };
    t.n++;
    t.ms += ms;
    this.timings.set(route, t);
  }

  countStatus(route: string, status: number) {
    const key = `${route}\t${status}`;
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
  }

  get size() {
    return this.groups.size;
  }

  /** One line per distinct problem: how often, what, and a request that shows it. */
  report(): string[] {
    return [...this.groups.entries()].map(([kind, g]) => `${g.count}x ${kind}\n    e.g. ${g.example}`);
  }

  statusTable(): string {
    const byRoute = new Map<string, string[]>();
    for (const [key, n] of [...this.statuses.entries()].sort()) {
      const [route, status] = key.split('\t');
      byRoute.set(route!, [...(byRoute.get(route!) ?? []), `${status}:${n}`]);
    }
    return [...byRoute.entries()]
      .map(([r, s]) => {
        const t = this.timings.get(r);
        return `  ${r.padEnd(26)} ${s.join(' ')}${t ? `  (mean ${(t.ms / t.n).toFixed(1)} ms)` : ''}`;
      })
      .join('\n');
  }
}

/** Sends a batch with bounded concurrency, checks every answer, then that the service is still up. */
export async function runBatch(
  ctx: FuzzContext,
  batch: readonly Generated[],
  findings: Findings,
  concurrency = 8,
): Promise<Array<FuzzResponse | undefined>> {
  const answers: Array<FuzzResponse | undefined> = new Array(batch.length);
  let next = 0;
  const worker = async () => {
    while (next < batch.length) {
      const i = next++;
      const g = batch[i]!;
      let res: FuzzResponse;
      try {
        res = await ctx.http.send(g.req);
      } catch (error) {
        findings.add(`${g.route.id}: no answer (${(error as Error).message})`, describeRequest(g.req));
        continue;
      }
      answers[i] = res;
      findings.countStatus(g.route.id, res.status);
      findings.time(g.route.id, res.ms);
      const statuses = [200, ...g.route.errorStatuses];
      for (const problem of checkAnswer(g.route.iface, g.req, res, {
        mustRefuse: g.mustRefuse,
        secrets: [ctx.apiKey],
        statuses,
      })) {
        findings.add(
          `${g.route.id}: ${problem.slice(0, 140)}`,
          `${g.note} :: ${describeRequest(g.req)} -> ${res.status} ${res.text.slice(0, 200)}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
  await checkAlive(ctx, findings, batch.length ? batch[batch.length - 1]!.req : undefined);
  return answers;
}

export async function checkAlive(ctx: FuzzContext, findings: Findings, after?: FuzzRequest) {
  try {
    const health = await ctx.http.send({ method: 'GET', path: '/healthz', headers: {} });
    if (health.status !== 200)
      findings.add(`healthz answered ${health.status}`, after ? describeRequest(after) : '');
  } catch (error) {
    findings.add(`healthz did not answer: ${(error as Error).message}`, after ? describeRequest(after) : '');
  }
}

export function diffSnapshots(before: StateSnapshot, after: StateSnapshot): string[] {
  const out: string[] = [];
  for (const part of ['rows', 'balances'] as const) {
    const keys = new Set([...Object.keys(before[part]), ...Object.keys(after[part])]);
    for (const key of keys) {
      if (before[part][key] !== after[part][key])
        out.push(`${part} ${key}: ${before[part][key]} -> ${after[part][key]}`);
    }
  }
  return out;
}
