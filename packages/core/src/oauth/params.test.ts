import { describe, expect, it } from 'vitest';
import { isFormContentType, param, parseScope, repeatedParam, tokenEndpointForm } from './params.js';
import { isCodeVerifier, isS256Challenge, verifyS256 } from './pkce.js';
import {
  hashSecret,
  hashSecretPortable,
  randomId,
  randomSecret,
  SECRET_PREFIX,
  sameSecretHash,
} from './secrets.js';
import { oauthSettings } from './settings.js';

describe('request parameters (RFC 6749 section 3.1 / 3.2 / 3.3)', () => {
  it('treats a parameter sent without a value as omitted', () => {
    const params = new URLSearchParams('a=&b=1');
    expect(param(params, 'a')).toBeUndefined();
    expect(param(params, 'b')).toBe('1');
    expect(param(params, 'c')).toBeUndefined();
  });

  it('finds a repeated parameter, among all or among the named ones', () => {
    const params = new URLSearchParams('a=1&b=1&b=2');
    expect(repeatedParam(params)).toBe('b');
    expect(repeatedParam(params, ['a'])).toBeUndefined();
  });

  it('accepts only form-encoded token requests, each parameter once', () => {
    expect(isFormContentType('application/x-www-form-urlencoded; charset=UTF-8')).toBe(true);
    expect(isFormContentType('application/json')).toBe(false);
    expect(isFormContentType(undefined)).toBe(false);
    expect(tokenEndpointForm(undefined)._unsafeUnwrapErr()).toEqual({
      error: 'invalid_request',
      description: 'the body must be application/x-www-form-urlencoded',
    });
    expect(tokenEndpointForm(new URLSearchParams('code=1&code=2'))._unsafeUnwrapErr().description).toBe(
      'the parameter code was sent more than once',
    );
  });

  it('parses a space-delimited scope into canonical order and refuses unknown values', () => {
    expect(parseScope('write read')).toEqual(['read', 'write']);
    expect(parseScope('read  read')).toEqual(['read']);
    expect(parseScope('admin')).toBeUndefined();
    expect(parseScope(' ')).toBeUndefined();
    expect(parseScope(undefined)).toBeUndefined();
  });
});

describe('PKCE (RFC 7636)', () => {
  // RFC 7636 Appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('section 4.6 / Appendix B: S256 of the example verifier is the example challenge', () => {
    expect(verifyS256(verifier, challenge)).toBe(true);
    expect(verifyS256(`${verifier.slice(0, -1)}1`, challenge)).toBe(false);
  });

  it('section 4.1 / 4.2: verifier and challenge shapes', () => {
    expect(isCodeVerifier(verifier)).toBe(true);
    expect(isCodeVerifier('short')).toBe(false);
    expect(isCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isS256Challenge(challenge)).toBe(true);
    expect(isS256Challenge(`${challenge}=`)).toBe(false);
  });
});

describe('secrets', () => {
  it('prefixes what a secret is, and stores it as a SHA-256 hex hash', () => {
    const secret = randomSecret(SECRET_PREFIX.refreshToken);
    expect(secret).toMatch(/^tart_[A-Za-z0-9]{43}$/);
    // SHA-256("abc"), FIPS 180-2 Appendix B.1.
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sameSecretHash(secret, hashSecret(secret))).toBe(true);
    expect(sameSecretHash(`${secret}x`, hashSecret(secret))).toBe(false);
    expect(randomId('grant_')).toMatch(/^grant_[0-9a-z]{25}$/);
  });

  it('hashes alike on the native and the portable path, non-ASCII included', () => {
    // On Node the native hash serves; the portable one is what a browser or a bare isolate runs.
    for (const secret of ['abc', '', 'ta_é€😀', randomSecret(SECRET_PREFIX.accessToken), 'x'.repeat(1000)]) {
      expect(hashSecret(secret)).toBe(hashSecretPortable(secret));
    }
    expect(hashSecretPortable('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('oauthSettings', () => {
  it('normalises the issuer, derives the endpoints and caps codes at 60 s', () => {
    const settings = oauthSettings({
      issuer: 'https://as.example:8443//',
      accessTokenTtlSec: 900,
      refreshTokenTtlSec: 3600,
      codeTtlSec: 600,
    });
    expect(settings).toMatchObject({
      issuer: 'https://as.example:8443',
      domain: 'as.example:8443',
      codeTtlSec: 60,
      siwsTtlMs: 300_000,
    });
    expect(settings.endpoints.token).toBe('https://as.example:8443/oauth/token');
  });

  it('refuses a malformed issuer when configured, not at the first sign-in', () => {
    expect(() =>
      oauthSettings({ issuer: 'not a url', accessTokenTtlSec: 1, refreshTokenTtlSec: 1, codeTtlSec: 1 }),
    ).toThrow();
  });
});
