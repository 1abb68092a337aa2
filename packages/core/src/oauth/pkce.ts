import { sha256 } from '@oslojs/crypto/sha2';
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import { utf8 } from './secrets.js';

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
export function isCodeVerifier(value: string): boolean {
  return /^[A-Za-z0-9\-._~]{43,128}$/.test(value);
}

/** RFC 7636 section 4.2: S256 challenges are BASE64URL(SHA256(verifier)), 43 characters. */
export function isS256Challenge(value: string): boolean {
  return /^[A-Za-z0-9\-_]{43}$/.test(value);
}

/** RFC 7636 section 4.6: the server recomputes the challenge from the verifier (constant time). */
export function verifyS256(verifier: string, challenge: string): boolean {
  const computed = encodeBase64urlNoPadding(sha256(utf8.encode(verifier)));
  return constantTimeEqual(utf8.encode(computed), utf8.encode(challenge));
}
