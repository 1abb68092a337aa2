import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MASTER_KEY_ENV, parseMasterKey } from './master-key-text.js';

export { deriveKey } from '../crypto/derive.js';
export { MASTER_KEY_ENV, parseMasterKey };

export const MASTER_KEY_FILE = 'master.key';

export interface MasterKey {
  readonly key: Uint8Array;
  /** True when this call created the key file: the caller should warn loudly that it must be kept. */
  readonly generated: boolean;
  /** Where the key came from: the environment variable, or a file (with its path). */
  readonly source:
    | { readonly kind: 'env'; readonly variable: string }
    | { readonly kind: 'file'; readonly path: string };
}

export interface LoadMasterKeyOptions {
  /** Directory for `master.key` when the environment does not supply the key. */
  readonly dataDir: string;
  /** Where KEYSTORE_MASTER_KEY may come from; never the process environment unless the caller passes it. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The keystore master key: `KEYSTORE_MASTER_KEY` (hex or base64 of 32 bytes) when set, otherwise
 * `<dataDir>/master.key`, generated on first start. Errors name the variable or file, never the value.
 */
export async function loadOrCreateMasterKey(options: LoadMasterKeyOptions): Promise<MasterKey> {
  const env = options.env ?? {};
  const fromEnv = env[MASTER_KEY_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const key = parseMasterKey(fromEnv);
    if (!key) throw new Error(`${MASTER_KEY_ENV} must be 32 bytes written as 64 hex digits or as base64`);
    return { key, generated: false, source: { kind: 'env', variable: MASTER_KEY_ENV } };
  }

  const path = join(options.dataDir, MASTER_KEY_FILE);
  const existing = await readKeyFile(path);
  if (existing) return { key: existing, generated: false, source: { kind: 'file', path } };

  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const key = new Uint8Array(randomBytes(32));
  // Written aside and hard-linked into place: the link either creates a complete file or fails
  // because one exists, so two processes starting together end up with the same key.
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${Buffer.from(key).toString('base64')}\n`, {
    mode: 0o600,
    flag: 'wx',
    flush: true,
  });
  try {
    await link(temporary, path);
    return { key, generated: true, source: { kind: 'file', path } };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readKeyFile(path);
    if (!winner) throw new Error(`${path} does not hold a 32-byte master key`);
    return { key: winner, generated: false, source: { kind: 'file', path } };
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function readKeyFile(path: string): Promise<Uint8Array | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read the master key file ${path}`);
  }
  const key = parseMasterKey(text);
  if (!key) throw new Error(`${path} does not hold a 32-byte master key (hex or base64)`);
  return key;
}
