import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from './config/env.js';
import { KeysConfigSchema, StateConfigSchema } from './config/fragments.js';
import { loadMasterKey } from './keys.js';

const Schema = StateConfigSchema.extend(KeysConfigSchema.shape);

describe('loadMasterKey', () => {
  const dirs: string[] = [];
  const saved = process.env.KEYSTORE_MASTER_KEY;
  afterEach(async () => {
    if (saved === undefined) delete process.env.KEYSTORE_MASTER_KEY;
    else process.env.KEYSTORE_MASTER_KEY = saved;
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('takes the key from the parsed configuration and writes no file', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'runtime-keys-'));
    dirs.push(dataDir);
    const config = parseEnv(Schema, { DATA_DIR: dataDir, KEYSTORE_MASTER_KEY: '01'.repeat(32) });
    const master = await loadMasterKey(config);
    expect(master).toMatchObject({ generated: false, source: { kind: 'env' } });
    expect(master.key).toEqual(new Uint8Array(32).fill(1));
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('does not read the process environment behind the configuration', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'runtime-keys-'));
    dirs.push(dataDir);
    process.env.KEYSTORE_MASTER_KEY = '02'.repeat(32);
    const master = await loadMasterKey(parseEnv(Schema, { DATA_DIR: dataDir }));
    expect(master.generated).toBe(true);
    expect(master.source).toEqual({ kind: 'file', path: join(dataDir, 'master.key') });
    expect(master.key).not.toEqual(new Uint8Array(32).fill(2));
    const again = await loadMasterKey(parseEnv(Schema, { DATA_DIR: dataDir }));
    expect(again).toMatchObject({ generated: false, key: master.key });
  });
});
