import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { AccountLayout, createTransferCheckedInstruction } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

// @solana/spl-token writes and reads every u64 amount through @solana/buffer-layout-utils, whose
// `bigint-buffer` is replaced by overrides/bigint-buffer (D162): these pin what that copy must do.
const U64_MAX = 2n ** 64n - 1n;
const key = (byte: number) => new PublicKey(new Uint8Array(32).fill(byte));

function transferChecked(amount: bigint) {
  return createTransferCheckedInstruction(key(1), key(2), key(3), key(4), amount, 6);
}

describe('u64 amounts of spl-token instructions and accounts', () => {
  it('encodes every u64 amount as its 8 little-endian bytes and reads it back', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), (amount) => {
        const data = transferChecked(amount).data;
        expect(data.readBigUInt64LE(1)).toBe(amount); // after the instruction tag
        const account = Buffer.alloc(AccountLayout.span);
        account.writeBigUInt64LE(amount, 64); // after mint and owner
        expect(AccountLayout.decode(account).amount).toBe(amount);
      }),
    );
    expect(transferChecked(U64_MAX).data.subarray(1, 9)).toEqual(Buffer.alloc(8, 0xff));
  });

  it('refuses an amount that does not fit in a u64 instead of encoding other bytes', () => {
    expect(() => transferChecked(U64_MAX + 1n)).toThrow(RangeError);
    expect(() => transferChecked(2n ** 64n + 5n)).toThrow(RangeError);
    expect(() => transferChecked(-1n)).toThrow(RangeError);
  });

  it('loads the plain-JavaScript bigint-buffer, which prints nothing', () => {
    const fromSplToken = createRequire(createRequire(import.meta.url).resolve('@solana/spl-token'));
    const fromLayoutUtils = createRequire(fromSplToken.resolve('@solana/buffer-layout-utils'));
    expect(realpathSync(fromLayoutUtils.resolve('bigint-buffer'))).toMatch(
      /overrides[\\/]bigint-buffer[\\/]index\.cjs$/,
    );
    // The npm package printed "bigint: Failed to load bindings, pure JS will be used" when imported.
    const run = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "await import('@solana/spl-token'); console.log('loaded')"],
      { cwd: import.meta.dirname, encoding: 'utf8' },
    );
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 0,
      stdout: 'loaded\n',
      stderr: '',
    });
  });
});
