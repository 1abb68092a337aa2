import type { IdempotencyBegin, StorePort } from '@token-actions/core';
import { coalesce } from '../coalesce.js';
import { attempt } from '../failure.js';
import type { SqlExecutor } from '../sql.js';
import { statement, valueRows, type WrittenColumn } from '../statement.js';
import type { Row } from './rows.js';

/** Answers per completing statement: one parameter per completion column each. */
const MAX_COMPLETE_BATCH = 256;

interface Completion {
  readonly scope: string;
  readonly key: string;
  readonly status: number;
  readonly body: string;
}

/** A row of the completions' VALUES list, cast so the list has column types. */
const COMPLETION_ROW: readonly WrittenColumn<Completion>[] = [
  { name: 'scope', cast: 'text', value: (a) => a.scope },
  { name: 'key', cast: 'text', value: (a) => a.key },
  { name: 'status', cast: 'integer', value: (a) => a.status },
  { name: 'body', cast: 'text', value: (a) => a.body },
];

/** Only a claim still in progress is completed: a replay, or a claim released meanwhile, is left as it is. */
const completeAll = (values: string) =>
  `UPDATE idempotency_keys k
      SET status = 'completed', response_status = a.status, response_body = a.body
     FROM (VALUES ${values}) AS a (scope, key, status, body)
    WHERE k.scope = a.scope AND k.key = a.key AND k.status = 'in_progress'`;

/**
 * Claims the key, or takes it over: a claim older than the TTL is replaced, and one in progress
 * for the same request is taken when it was abandoned (older than `abandonedBefore`) or its owner's
 * instance lease has lapsed.
 */
const CLAIM = statement(
  ['scope', 'key', 'requestHash', 'at', 'staleBefore', 'abandonedBefore', 'owner'],
  (p) =>
    `INSERT INTO idempotency_keys AS k (scope, key, request_hash, status, created_at, owner)
     VALUES (${p.scope}, ${p.key}, ${p.requestHash}, 'in_progress', ${p.at}, ${p.owner})
     ON CONFLICT (scope, key) DO UPDATE
        SET request_hash = EXCLUDED.request_hash,
            status = 'in_progress',
            response_status = NULL,
            response_body = NULL,
            created_at = EXCLUDED.created_at,
            owner = EXCLUDED.owner
      WHERE k.created_at < ${p.staleBefore}
         OR (k.status = 'in_progress' AND k.request_hash = EXCLUDED.request_hash
             AND (k.created_at <= ${p.abandonedBefore}
                  OR (k.owner IS NOT NULL AND k.owner IS DISTINCT FROM EXCLUDED.owner
                      AND NOT EXISTS (SELECT 1 FROM process_instances i
                                       WHERE i.id = k.owner AND i.lease_until > ${p.at}))))
     RETURNING 1 AS claimed`,
);

const SELECT_CLAIM = `SELECT request_hash, status, response_status, response_body
  FROM idempotency_keys WHERE scope = $1 AND key = $2`;

/** What a claim that could not be taken answers: a mismatch, the stored answer, or still in progress. */
function answerOf(row: Row, requestHash: string): IdempotencyBegin {
  if (row.request_hash !== requestHash) return { state: 'mismatch' };
  if (row.status !== 'completed') return { state: 'in_progress' };
  return { state: 'completed', status: Number(row.response_status), body: String(row.response_body ?? '') };
}

/** Idempotency keys are honoured for 24 hours; an older claim counts as absent and is replaced. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Idempotency keys (Stripe's rules): the first request claims the key, a replay gets the stored
 * answer, a different body under the same key is a mismatch, and a claim left by a dead process is
 * taken over: at once when its owner's instance lease (`process_instances`) has lapsed, else after
 * `abandonAfterMs` (claims with no owner, or an owner whose lease is still current).
 */
export function createPgIdempotency(
  sql: SqlExecutor,
  abandonAfterMs: number,
  owner?: string,
  coalescing = false,
): StorePort['idempotency'] {
  /**
   * Stores the answers of finished requests, one statement for the lot. One statement cannot
   * complete the same key twice, so a batch naming a key twice goes one by one.
   */
  const completeMany = async (answers: readonly Completion[]): Promise<PromiseSettledResult<undefined>[]> => {
    const keys = new Set(answers.map((a) => JSON.stringify([a.scope, a.key])));
    if (keys.size < answers.length) {
      const settled: PromiseSettledResult<undefined>[] = [];
      for (const answer of answers) settled.push(...(await completeMany([answer])));
      return settled;
    }
    const values = valueRows(COMPLETION_ROW, answers);
    await sql.query(completeAll(values.text), values.params);
    return answers.map(() => ({ status: 'fulfilled', value: undefined }));
  };
  const completeCoalesced = coalescing ? coalesce(completeMany, MAX_COMPLETE_BATCH) : undefined;

  return {
    begin(scope, key, requestHash, at) {
      const staleBefore = new Date(at.getTime() - IDEMPOTENCY_TTL_MS);
      const abandonedBefore = new Date(at.getTime() - abandonAfterMs);
      return attempt('idempotency.begin', async (): Promise<IdempotencyBegin> => {
        // A claim released between our insert and our read leaves nothing to read; claiming
        // again settles it. Giving up after a few rounds answers "in progress", which is retryable.
        for (let round = 0; round < 3; round++) {
          const claimed = await sql.query(
            CLAIM.text,
            CLAIM.params({ scope, key, requestHash, at, staleBefore, abandonedBefore, owner: owner ?? null }),
          );
          if (claimed.rows.length > 0) return { state: 'started' };
          const existing = await sql.query<Row>(SELECT_CLAIM, [scope, key]);
          const row = existing.rows[0];
          if (row) return answerOf(row, requestHash);
        }
        return { state: 'in_progress' };
      });
    },

    complete(scope, key, status, body) {
      return attempt('idempotency.complete', () =>
        completeCoalesced
          ? completeCoalesced({ scope, key, status, body })
          : completeMany([{ scope, key, status, body }]).then(() => undefined),
      );
    },

    release(scope, key) {
      return attempt('idempotency.release', async () => {
        await sql.query(
          `DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND status = 'in_progress'`,
          [scope, key],
        );
      });
    },

    purgeOlderThan(cutoff) {
      return attempt('idempotency.purgeOlderThan', async () => {
        const result = await sql.query<{ n: string }>(
          `WITH gone AS (DELETE FROM idempotency_keys WHERE created_at < $1 RETURNING 1)
           SELECT count(*) AS n FROM gone`,
          [cutoff],
        );
        return Number(result.rows[0]?.n ?? 0);
      });
    },
  };
}
