import type { Migration } from './types.js';

/** The channel the pool book announces its changes on (pool state or a pool's history). */
export const POOL_CHANGES_CHANNEL = 'token_actions_pool_changes';

/**
 * Quotes from memory, so an indicative quote costs no database round trip. Servers keep the pool
 * book in memory; every statement that changes it notifies POOL_CHANGES_CHANNEL at commit, so every
 * process sharing the database drops what it holds. A pool's history size is kept as a counter
 * (`history_count`) by a trigger on each status change, so a page of history needs no count(*). The
 * open-request indexes let the worker find the requests whose outcome can have changed without
 * walking every pending firm quote, and the per-client index keeps the cap on unexecuted quotes
 * from scanning the table.
 */
export const migration0040: Migration = {
  id: '0040_swap_quotes',
  sql: `
ALTER TABLE pools ADD COLUMN history_count bigint NOT NULL DEFAULT 0 CHECK (history_count >= 0);
UPDATE pools SET history_count = (
  SELECT count(*) FROM swap_requests r
   WHERE pools.id = ANY (r.pool_ids) AND r.status IN ('submitted', 'landed', 'failed'));

CREATE FUNCTION swap_history_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer := 0;
BEGIN
  IF NEW.status IN ('submitted', 'landed', 'failed') THEN delta := 1; END IF;
  IF TG_OP = 'UPDATE' AND OLD.status IN ('submitted', 'landed', 'failed') THEN delta := delta - 1; END IF;
  IF delta <> 0 THEN
    -- Locked in id order, as reservations lock them, so the two cannot deadlock.
    UPDATE pools SET history_count = history_count + delta
     WHERE id IN (SELECT id FROM pools WHERE id = ANY (NEW.pool_ids) ORDER BY id FOR UPDATE);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER swap_requests_history_count AFTER INSERT OR UPDATE OF status ON swap_requests
  FOR EACH ROW EXECUTE FUNCTION swap_history_count();

CREATE FUNCTION pool_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${POOL_CHANGES_CHANNEL}', 'pools');
  RETURN NULL;
END $$;
CREATE TRIGGER pools_changes_notify AFTER INSERT OR UPDATE OR DELETE ON pools
  FOR EACH STATEMENT EXECUTE FUNCTION pool_changes_notify();

CREATE INDEX swap_requests_history_idx ON swap_requests (created_at DESC, seq DESC)
  WHERE status IN ('submitted', 'landed', 'failed');
CREATE INDEX swap_requests_submitted_idx ON swap_requests (created_at, seq) WHERE status = 'submitted';
CREATE INDEX swap_requests_prepared_height_idx ON swap_requests (last_valid_block_height)
  WHERE status = 'prepared' AND message IS NOT NULL;
CREATE INDEX swap_requests_unbuilt_idx ON swap_requests (expires_at) WHERE status = 'prepared' AND message IS NULL;
CREATE INDEX swap_requests_client_open_idx ON swap_requests (client_id, expires_at) WHERE status = 'prepared';
`,
};
