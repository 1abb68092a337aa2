import { createHmac, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LocalnetEnv, parseKey32 } from './env.js';

const MASTER_KEY_FILE = 'master.key';

/** The localnet seed of a service: its master key's sub-key for the localnet, so the embedded chain
 * and `pnpm localnet` on the same DATA_DIR are one chain (the service derives it the same way). */
export function localnetSeedFromMasterKey(master: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac('sha256', master).update('token-actions/localnet-seed').digest());
}

function readKeyFile(path: string): Uint8Array | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read the master key file ${path}`);
  }
  const key = parseKey32(text);
  if (!key) throw new Error(`${path} does not hold a 32-byte master key (hex or base64)`);
  return key;
}

/** `$DATA_DIR/master.key`, made on first start: written aside and hard-linked into place, so two
 * processes starting together (a server and this localnet) end up with the same key. */
function masterKeyFile(dataDir: string): { key: Uint8Array; generated: boolean } {
  const path = join(dataDir, MASTER_KEY_FILE);
  const existing = readKeyFile(path);
  if (existing) return { key: existing, generated: false };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = new Uint8Array(randomBytes(32));
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, `${Buffer.from(key).toString('base64')}\n`, {
    mode: 0o600,
    flag: 'wx',
    flush: true,
  });
  try {
    linkSync(temporary, path);
    return { key, generated: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: readKeyFile(path)!, generated: false };
  } finally {
    unlinkSync(temporary);
  }
}

/** LOCALNET_SEED, else the seed derived from the master key (KEYSTORE_MASTER_KEY or the key file). */
export function localnetSeedOf(env: LocalnetEnv): { seed: Uint8Array; generatedMasterKey: boolean } {
  if (env.LOCALNET_SEED !== undefined)
    return { seed: parseKey32(env.LOCALNET_SEED)!, generatedMasterKey: false };
  const master =
    env.KEYSTORE_MASTER_KEY !== undefined
      ? { key: parseKey32(env.KEYSTORE_MASTER_KEY)!, generated: false }
      : masterKeyFile(env.DATA_DIR);
  return { seed: localnetSeedFromMasterKey(master.key), generatedMasterKey: master.generated };
}
