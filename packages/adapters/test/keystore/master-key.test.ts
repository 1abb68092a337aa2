import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localnetSeedFromMasterKey } from '@token-actions/localnet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveKey, loadOrCreateMasterKey, parseMasterKey } from '../../src/keystore/index.js';

describe('loadOrCreateMasterKey', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'ta-master-')), 'data');
  });
  afterEach(() => rm(join(dataDir, '..'), { recursive: true, force: true }));

  const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 7);

  it('takes KEYSTORE_MASTER_KEY as hex', async () => {
    const env = { KEYSTORE_MASTER_KEY: Buffer.from(bytes).toString('hex') };
    const result = await loadOrCreateMasterKey({ dataDir, env });
    expect(result.key).toEqual(bytes);
    expect(result.generated).toBe(false);
    expect(result.source).toEqual({ kind: 'env', variable: 'KEYSTORE_MASTER_KEY' });
    await expect(stat(join(dataDir, 'master.key'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes KEYSTORE_MASTER_KEY as base64 or base64url', async () => {
    for (const encoding of ['base64', 'base64url'] as const) {
      const env = { KEYSTORE_MASTER_KEY: ` ${Buffer.from(bytes).toString(encoding)}\n` };
      expect((await loadOrCreateMasterKey({ dataDir, env })).key).toEqual(bytes);
    }
  });

  it('rejects a malformed KEYSTORE_MASTER_KEY, naming the variable but not the value', async () => {
    for (const value of [
      'abc',
      Buffer.from(bytes.subarray(0, 31)).toString('hex'),
      Buffer.alloc(33).toString('base64'),
    ]) {
      const error = await loadOrCreateMasterKey({ dataDir, env: { KEYSTORE_MASTER_KEY: value } }).catch(
        (e: Error) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain('KEYSTORE_MASTER_KEY');
      expect((error as Error).message).not.toContain(value);
    }
  });

  it('generates a key file with mode 0600 once, then reads it back', async () => {
    const first = await loadOrCreateMasterKey({ dataDir, env: {} });
    expect(first.generated).toBe(true);
    expect(first.key).toHaveLength(32);
    const path = join(dataDir, 'master.key');
    expect(first.source).toEqual({ kind: 'file', path });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(parseMasterKey(await readFile(path, 'utf8'))).toEqual(first.key);

    const second = await loadOrCreateMasterKey({ dataDir, env: {} });
    expect(second.generated).toBe(false);
    expect(second.key).toEqual(first.key);
  });

  it('ends with one key when several processes start together', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => loadOrCreateMasterKey({ dataDir, env: {} })),
    );
    expect(results.filter((r) => r.generated)).toHaveLength(1);
    for (const r of results) expect(r.key).toEqual(results[0]!.key);
  });

  it('refuses a damaged key file instead of replacing it', async () => {
    await loadOrCreateMasterKey({ dataDir, env: {} });
    await writeFile(join(dataDir, 'master.key'), 'not a key');
    await expect(loadOrCreateMasterKey({ dataDir, env: {} })).rejects.toThrow(
      /does not hold a 32-byte master key/,
    );
  });

  it('derives the localnet seed exactly as `pnpm localnet` does, so both open the same chain', () => {
    const master = new Uint8Array(32).fill(7);
    expect(localnetSeedFromMasterKey(master)).toEqual(deriveKey(master, 'localnet-seed'));
  });
});
