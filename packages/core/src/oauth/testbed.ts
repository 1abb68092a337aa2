/**
 * Test support for the OAuth unit tests (not exported): the in-memory store and a fixed clock
 * from `testing`, a logger that keeps its lines, clients, and a wallet that signs like an
 * injected Solana wallet. Everything runs without HTTP.
 */
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase64, encodeBase64urlNoPadding } from '@oslojs/encoding';
import { encodeBase58 } from '../domain/base58.js';
import type { OAuthClientRecord, OAuthScope } from '../ports/oauth.js';
import { createFixedClock, createMemoryOAuthStore } from '../testing/index.js';
import { type AuthorizationRequest, consentFormParams } from './authorize.js';
import { registerClient } from './clients.js';
import { type OAuthLogger, oauthSettings } from './settings.js';
import { completeAuthorization, issueSignInChallenge } from './sign-in.js';
import { exchangeAuthorizationCode, type TokenResponse } from './token.js';

export const ISSUER = 'https://as.example';
export const REDIRECT_URI = 'https://client.example/cb';

export interface TestWallet {
  readonly address: string;
  sign(message: string): Promise<string>;
}

export async function createTestWallet(): Promise<TestWallet> {
  const pair = (await globalThis.crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const raw = new Uint8Array(await globalThis.crypto.subtle.exportKey('raw', pair.publicKey));
  return {
    address: encodeBase58(raw),
    async sign(message) {
      const bytes = new TextEncoder().encode(message);
      const signature = await globalThis.crypto.subtle.sign({ name: 'Ed25519' }, pair.privateKey, bytes);
      return encodeBase64(new Uint8Array(signature));
    },
  };
}

/** RFC 7636 section 4.1 / 4.2: a verifier and its S256 challenge. */
export function pkcePair(seed = 'a'): { verifier: string; challenge: string } {
  const verifier = seed.repeat(43).slice(0, 43);
  return { verifier, challenge: encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier))) };
}

export function form(values: Record<string, string>): URLSearchParams {
  return new URLSearchParams(values);
}

export function createTestbed() {
  const store = createMemoryOAuthStore();
  const clock = createFixedClock(new Date('2025-06-01T12:00:00.000Z'));
  const lines: string[] = [];
  const write = (level: string) => (fields: Record<string, unknown>, message: string) => {
    lines.push(JSON.stringify({ level, ...fields, msg: message }));
  };
  const logger: OAuthLogger = { info: write('info'), warn: write('warn'), error: write('error') };
  const deps = { store, clock, logger };
  const settings = oauthSettings({
    issuer: `${ISSUER}/`,
    accessTokenTtlSec: 900,
    refreshTokenTtlSec: 86_400,
    codeTtlSec: 600,
    siwsChainId: 'localnet',
  });

  async function register(type: 'confidential' | 'public', scopes?: readonly OAuthScope[]) {
    const registered = await registerClient(deps, {
      name: `${type} app`,
      type,
      redirectUris: [REDIRECT_URI],
      ...(scopes ? { scopes } : {}),
    });
    return registered._unsafeUnwrap();
  }

  /** The consent form a browser would post after the wallet signed the challenge. */
  async function consentForm(
    request: AuthorizationRequest,
    wallet: TestWallet,
    overrides: Record<string, string> = {},
  ): Promise<URLSearchParams> {
    const challenge = (
      await issueSignInChallenge(
        deps,
        settings,
        JSON.stringify({ address: wallet.address, ...consentFormParams(request) }),
      )
    )._unsafeUnwrap();
    return form({
      ...consentFormParams(request),
      decision: 'approve',
      address: wallet.address,
      signature: await wallet.sign(challenge.message),
      nonce: challenge.nonce,
      issued_at: challenge.issuedAt,
      expiration_time: challenge.expirationTime,
      ...overrides,
    });
  }

  function requestFor(
    client: OAuthClientRecord,
    challenge: string,
    scope: readonly OAuthScope[] = ['read'],
  ): AuthorizationRequest {
    return { client, redirectUri: REDIRECT_URI, scope, state: 'st-1', codeChallenge: challenge };
  }

  /** Runs the authorization step (RFC 6749 section 4.1.1 / 4.1.2) and returns the issued code. */
  async function authorize(client: OAuthClientRecord, scope: readonly OAuthScope[] = ['read']) {
    const wallet = await createTestWallet();
    const pkce = pkcePair();
    const location = (
      await completeAuthorization(
        deps,
        settings,
        await consentForm(requestFor(client, pkce.challenge, scope), wallet),
      )
    )._unsafeUnwrap();
    const code = new URL(location).searchParams.get('code');
    if (!code) throw new Error(`no code in ${location}`);
    return { code, verifier: pkce.verifier, wallet };
  }

  /** Authorization plus code exchange: a fresh grant's tokens. */
  async function tokens(
    client: OAuthClientRecord,
    scope: readonly OAuthScope[] = ['read'],
  ): Promise<TokenResponse & { wallet: TestWallet }> {
    const { code, verifier, wallet } = await authorize(client, scope);
    const issued = await exchangeAuthorizationCode(deps, settings, client, {
      code,
      redirectUri: REDIRECT_URI,
      codeVerifier: verifier,
    });
    return { ...issued._unsafeUnwrap(), wallet };
  }

  return { store, clock, lines, deps, settings, register, consentForm, requestFor, authorize, tokens };
}

export type Testbed = ReturnType<typeof createTestbed>;
