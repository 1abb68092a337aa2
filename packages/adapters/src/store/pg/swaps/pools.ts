import type { PublicKey, SwapStore } from '@token-actions/core';
import { attempt } from '../failure.js';
import type { SqlExecutor } from '../sql.js';
import { statement } from '../statement.js';
import { POOL_COLUMNS, type PoolRow, toPool } from './rows.js';

/** A new pool promises nothing yet, and has not changed since it was booked. */
const INSERT_POOL = statement(
  ['id', 'tokenA', 'tokenB', 'reserveA', 'reserveB', 'feeBps', 'authority', 'at'],
  (p) =>
    `INSERT INTO pools (${POOL_COLUMNS})
     VALUES (${p.id}, ${p.tokenA}, ${p.tokenB}, ${p.reserveA}, ${p.reserveB}, 0, 0, ${p.feeBps}, ${p.authority}, ${p.at}, ${p.at})
     ON CONFLICT (id) DO NOTHING RETURNING ${POOL_COLUMNS}`,
);
const SELECT_POOL = `SELECT ${POOL_COLUMNS} FROM pools WHERE id = $1`;
const SELECT_AUTHORITY = 'SELECT authority FROM pools WHERE id = $1';
const SELECT_POOLS = `SELECT ${POOL_COLUMNS} FROM pools ORDER BY id`;

type PoolBook = Pick<SwapStore, 'ensurePool' | 'getPool' | 'poolAuthority' | 'listPools'>;

/** The pools themselves: booked once, read by id or all at once. */
export function createPgPools(sql: SqlExecutor, now: () => Date): PoolBook {
  return {
    ensurePool(pool) {
      return attempt('pools.ensure', async () => {
        const inserted = await sql.query<PoolRow>(
          INSERT_POOL.text,
          INSERT_POOL.params({
            id: pool.id,
            tokenA: pool.tokenA,
            tokenB: pool.tokenB,
            reserveA: pool.reserveA.toString(),
            reserveB: pool.reserveB.toString(),
            feeBps: pool.feeBps,
            authority: pool.authority,
            at: now(),
          }),
        );
        if (inserted.rows[0]) return { created: true, pool: toPool(inserted.rows[0]) };
        const existing = await sql.query<PoolRow>(SELECT_POOL, [pool.id]);
        return { created: false, pool: toPool(existing.rows[0]!) };
      });
    },

    getPool(id) {
      return attempt('pools.get', async () => {
        const r = await sql.query<PoolRow>(SELECT_POOL, [id]);
        return r.rows[0] ? toPool(r.rows[0]) : null;
      });
    },

    poolAuthority(id) {
      return attempt('pools.authority', async () => {
        const r = await sql.query<{ authority: string }>(SELECT_AUTHORITY, [id]);
        return r.rows[0] ? (r.rows[0].authority as PublicKey) : null;
      });
    },

    listPools() {
      return attempt('pools.list', async () => (await sql.query<PoolRow>(SELECT_POOLS)).rows.map(toPool));
    },
  };
}
