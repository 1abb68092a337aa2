import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRequest } from './checks.js';
import { FUZZ_SEED, type FuzzContext, setupFuzz } from './context.js';
import type { FuzzResponse } from './http.js';
import { anyRequest, type Generated, refusedRequest } from './requests.js';
import { type RouteSpec, routeTable } from './routes.js';
import { diffSnapshots, Findings, runBatch } from './runner.js';

/**
 * Property-based hostile-input tests over every route of interface A, against the real service
 * (LiteSVM + PGlite) over HTTP. Generation is deterministic from FUZZ_SEED (logged); every
 * distinct violation is reported with a request that reproduces it.
 *
 *   pnpm --filter @token-actions/server exec vitest run test/fuzz
 *   FUZZ_SEED=123 FUZZ_SCALE=4 ...   (another seed; four times the requests)
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const BATCH = 25;
const RUNS = {
  any: Math.round(260 * SCALE),
  refused: Math.round(90 * SCALE),
  idempotency: Math.round(120 * SCALE),
};

describe('interface A under hostile input', () => {
  let ctx: FuzzContext;
  let routes: RouteSpec[];
  const processErrors: string[] = [];
  const onError = (error: unknown) => processErrors.push(String((error as Error)?.stack ?? error));

  beforeAll(async () => {
    process.on('uncaughtException', onError);
    process.on('unhandledRejection', onError);
    ctx = await setupFuzz();
    routes = routeTable(ctx);
    console.info(`[fuzz] interface A: seed=${FUZZ_SEED} (set FUZZ_SEED to replay), scale=${SCALE}`);
  }, 120_000);

  afterAll(async () => {
    process.off('uncaughtException', onError);
    process.off('unhandledRejection', onError);
    if (ctx) {
      console.info(
        `[fuzz] interface A: ${ctx.http.sent} requests (${ctx.http.resets} retried after a reset keep-alive socket); slowest ${ctx.http.slowest.ms.toFixed(0)} ms${ctx.http.slowest.req ? ` (${describeRequest(ctx.http.slowest.req).slice(0, 160)})` : ''}`,
      );
      await ctx.close();
    }
  });

  const check = (name: string, findings: Findings) => {
    console.info(`[fuzz] ${name}: answers by route and status\n${findings.statusTable()}`);
    expect(findings.report(), `${name}: violations (seed ${FUZZ_SEED})`).toEqual([]);
    expect(processErrors, 'uncaught errors in the server process').toEqual([]);
  };

  it('any request: never a 5xx, every error is exactly {message, code}, no secrets or internals in answers', async () => {
    const findings = new Findings();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(anyRequest(ctx, routes), { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          if (run++ % 40 === 0) await ctx.refreshPreviews();
          await runBatch(ctx, batch, findings);
        },
      ),
      { seed: FUZZ_SEED, numRuns: RUNS.any, endOnFailure: true },
    );
    check('any request', findings);
  }, 240_000);

  it('a request the service must refuse is refused, and changes no balance, row or status', async () => {
    const findings = new Findings();
    await ctx.refreshPreviews();
    // Every route whose success changes something, and those that must refuse by construction.
    const targets = routes.filter((r) => r.iface === 'A' && (r.mutates || r.method === 'POST'));
    await fc.assert(
      fc.asyncProperty(
        fc.array(refusedRequest(ctx, targets), { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          const before = await ctx.snapshot();
          await runBatch(ctx, batch, findings);
          const after = await ctx.snapshot();
          const changes = diffSnapshots(before, after);
          if (changes.length > 0) {
            findings.add(
              `state changed during a batch of refused requests: ${changes.slice(0, 3).join('; ')}`,
              batch.map((g: Generated) => `${g.route.id} [${g.note}]`).join(', '),
            );
          }
        },
      ),
      { seed: FUZZ_SEED + 1, numRuns: RUNS.refused, endOnFailure: true },
    );
    check('refused requests', findings);
  }, 240_000);

  it('Idempotency-Key: a retry replays the first answer and executes nothing; another body under the key is a 409', async () => {
    const findings = new Findings();
    await ctx.refreshPreviews();
    const posts = routes.filter((r) => r.iface === 'A' && r.method === 'POST');
    let n = 0;
    await fc.assert(
      fc.asyncProperty(anyRequest(ctx, posts), async (g) => {
        const key = `fuzz-${FUZZ_SEED}-${n++}`;
        const headers = { ...g.req.headers, authorization: `Bearer ${ctx.apiKey}`, 'idempotency-key': key };
        const req = { ...g.req, method: 'POST', headers };
        let first: FuzzResponse;
        let again: FuzzResponse;
        let other: FuzzResponse;
        let changes: string[];
        try {
          first = await ctx.http.send(req);
          const afterFirst = await ctx.snapshot();
          again = await ctx.http.send(req);
          // Small, so the body limit (checked before the key) cannot answer first.
          const body = req.body === '{"zz":1}' ? '{"zz":2}' : '{"zz":1}';
          other = await ctx.http.send({ ...req, body, chunked: false });
          changes = diffSnapshots(afterFirst, await ctx.snapshot());
        } catch (error) {
          findings.add(`${g.route.id}: no answer (${(error as Error).message})`, describeRequest(req));
          return;
        }
        const where = `${g.route.id} :: ${describeRequest(req)} -> ${first.status} ${first.text.slice(0, 120)}`;
        if (first.status >= 500) findings.add(`first answer ${first.status}`, where);
        if (again.status !== first.status || again.text !== first.text) {
          findings.add(
            `${g.route.id}: retry answered ${again.status} ${again.text.slice(0, 80)} after ${first.status}`,
            where,
          );
        }
        const replayed = again.headers['idempotent-replayed'] === 'true';
        if (replayed && other.status !== 409) {
          findings.add(
            `${g.route.id}: another body under a used key answered ${other.status}, not 409`,
            where,
          );
        }
        if (changes.length > 0) {
          findings.add(
            `${g.route.id}: a retry or a reused key changed state: ${changes.slice(0, 3).join('; ')}`,
            where,
          );
        }
        findings.countStatus(g.route.id, first.status);
      }),
      { seed: FUZZ_SEED + 2, numRuns: RUNS.idempotency, endOnFailure: true },
    );
    check('idempotency', findings);
  }, 240_000);

  it("sent its share of the suite's 10,000+ generated requests", () => {
    expect(ctx.http.sent).toBeGreaterThanOrEqual(Math.round(8_000 * Math.min(1, SCALE)));
  });
});
