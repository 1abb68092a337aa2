import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.js';
import { CoreConfigSchema, KeysConfigSchema, StateConfigSchema } from './fragments.js';

const HEX_KEY = 'ab'.repeat(32);

describe('config fragments', () => {
  it('gives the embedded default when nothing is set', () => {
    const config = parseEnv(CoreConfigSchema, {});
    expect(config).toMatchObject({
      DATA_DIR: '.data',
      LOCALNET_RPC_PORT: 8899,
      LOCALNET_RPC: true,
      PROJECT_TICKER: 'PROJ',
      PRIORITY_FEE_FLOORS_MICROLAMPORTS: [0n, 100n, 1000n, 10000n, 100000n],
      AGGREGATOR: 'local',
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.KEYSTORE_MASTER_KEY).toBeUndefined();
  });

  it('treats an empty variable as unset', () => {
    const config = parseEnv(StateConfigSchema, { DATA_DIR: '', DATABASE_URL: '' });
    expect(config.DATA_DIR).toBe('.data');
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('decodes KEYSTORE_MASTER_KEY into its 32 bytes at parse time', () => {
    const { KEYSTORE_MASTER_KEY } = parseEnv(KeysConfigSchema, { KEYSTORE_MASTER_KEY: HEX_KEY });
    expect(KEYSTORE_MASTER_KEY).toEqual(new Uint8Array(32).fill(0xab));
  });

  it('stops on a malformed master key, naming the variable and never echoing the value', () => {
    const secret = 'not-a-key-but-still-secret';
    const error = (() => {
      try {
        parseEnv(CoreConfigSchema, { KEYSTORE_MASTER_KEY: secret });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/KEYSTORE_MASTER_KEY: must be 32 bytes/);
    expect(error?.message).not.toContain(secret);
  });

  it('names every bad variable', () => {
    expect(() =>
      parseEnv(CoreConfigSchema, { LOCALNET_RPC_PORT: '70000', PROJECT_TICKER: 'proj', LOCALNET_RPC: 'yes' }),
    ).toThrow(/LOCALNET_RPC_PORT[\s\S]*PROJECT_TICKER|PROJECT_TICKER[\s\S]*LOCALNET_RPC_PORT/);
  });
});
