import { createHmac, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const MASTER_KEY_ENV = 'KEYSTORE_MASTER_KEY';
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
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The keystore master key: `KEYSTORE_MASTER_KEY` (hex or base64 of 32 bytes) when set, otherwise
 * `<dataDir>/master.key`, generated on first start. Errors name the variable or file, never the value.
 */
export async function loadOrCreateMasterKey(options: LoadMasterKeyOptions): Promise<MasterKey> {
  const env = options.env ?? process.env;
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

/** 64 hex digits, or standard/URL-safe base64 of exactly 32 bytes; anything else is undefined. */
export function parseMasterKey(text: string): Uint8Array | undefined {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return new Uint8Array(Buffer.from(value, 'hex'));
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return new Uint8Array(bytes);
  }
  return undefined;
}

/**
 * A sub-key for one purpose (preview MAC, localnet seed, webhook signing), so the master key never
 * serves two algorithms directly. Every process that must agree on a sub-key calls this one function.
 */
export function deriveKey(master: Uint8Array, purpose: string): Uint8Array {
  return new Uint8Array(createHmac('sha256', master).update(`token-actions/${purpose}`).digest());
}
