'use strict';
// bigint-buffer's interface (unsigned big-endian and little-endian conversions between bigint
// and bytes) in plain JavaScript, installed in its place by the `overrides` of pnpm-workspace.yaml.
// Its only user is @solana/buffer-layout-utils (the u64/u128 layouts of @solana/spl-token). The npm
// package loads a native binding first: unbuilt, it prints "bigint: Failed to load bindings" on
// every start; built, it carries CVE-2025-3194 (GHSA-3gc7-fjrx-p6mg, no fixed release). D162.
const { Buffer } = require('node:buffer');

/** The bytes of `buf` (a Buffer or any Uint8Array) read as an unsigned big-endian integer. */
function toBigIntBE(buf) {
  const hex = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('hex');
  return hex.length === 0 ? 0n : BigInt(`0x${hex}`);
}

/** The bytes of `buf` read as an unsigned little-endian integer. */
function toBigIntLE(buf) {
  return toBigIntBE(Buffer.from(buf).reverse());
}

/**
 * `num` as `width` big-endian bytes. A value that does not fit (negative, or 2^(8·width) and
 * above) is a RangeError: the npm package's fallback silently kept the wrong digits, and an amount
 * must never be encoded as another one.
 */
function toBufferBE(num, width) {
  if (typeof num !== 'bigint') throw new TypeError('bigint-buffer: expected a bigint');
  if (!Number.isSafeInteger(width) || width < 0) throw new RangeError(`bigint-buffer: bad width ${width}`);
  if (num < 0n || num >= 1n << BigInt(8 * width)) {
    throw new RangeError(`bigint-buffer: ${num} does not fit in ${width} unsigned bytes`);
  }
  return Buffer.from(num.toString(16).padStart(width * 2, '0'), 'hex');
}

/** `num` as `width` little-endian bytes (same range rule as `toBufferBE`). */
function toBufferLE(num, width) {
  return toBufferBE(num, width).reverse();
}

exports.toBigIntBE = toBigIntBE;
exports.toBigIntLE = toBigIntLE;
exports.toBufferBE = toBufferBE;
exports.toBufferLE = toBufferLE;
