import { spawn } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { randomSigner } from '../../src/chain/shared/ed25519.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..', '..');

function verifies(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({
    format: 'jwk',
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') },
  });
  return verify(null, message, key, signature);
}

describe('randomSigner', () => {
  it('signs with the private key of the public key it reports', () => {
    const signer = randomSigner();
    const message = new TextEncoder().encode('transfer 1 SOL');
    const signature = signer.sign(message);
    expect(signer.publicKey).toHaveLength(32);
    expect(signature).toHaveLength(64);
    expect(verifies(signer.publicKey, message, signature)).toBe(true);
    expect(verifies(signer.publicKey, new TextEncoder().encode('transfer 2 SOL'), signature)).toBe(false);
    expect(verifies(randomSigner().publicKey, message, signature)).toBe(false);
  });

  it('makes a different key every time', () => {
    const keys = new Set(
      Array.from({ length: 1_000 }, () => Buffer.from(randomSigner().publicKey).toString('hex')),
    );
    expect(keys.size).toBe(1_000);
  });

  // Generating with `generateKeyPairSync` and exporting deadlocked within 20,000 keys in five
  // runs out of five; the child would never exit, and is killed after a minute.
  it('makes 50,000 keys in a row without stopping', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(here, 'fixtures', 'many-keys.ts'), '50000'],
      {
        cwd: packageDir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += String(chunk);
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(killer);
    expect({ code, signal, output: output.trim() }).toEqual({ code: 0, signal: null, output: '50000' });
  }, 70_000);
});
