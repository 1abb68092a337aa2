import type { ClockPort } from '../ports/clock.js';
import type { OAuthStore } from '../ports/oauth.js';
import type { OutboundUrlPolicy } from '../ports/outbound.js';

/** pino-compatible: fields first, then the message. Fields never carry a secret. */
export interface OAuthLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error?(fields: Record<string, unknown>, message: string): void;
}

export interface OAuthDeps {
  readonly store: OAuthStore;
  readonly clock: ClockPort;
  readonly logger?: OAuthLogger;
  /** The SSRF guard a client's webhook URL must pass at registration. */
  readonly webhookUrls?: OutboundUrlPolicy;
}

export interface OAuthConfig {
  /** Base URL of this server, e.g. http://localhost:8787; the RFC 8414 issuer identifier. */
  readonly issuer: string;
  readonly accessTokenTtlSec: number;
  readonly refreshTokenTtlSec: number;
  /** Capped at 60 s. */
  readonly codeTtlSec: number;
  /** SIWS `Chain ID` line (mainnet, devnet, testnet, localnet); omitted when unset. */
  readonly siwsChainId?: string;
  /** How long a sign-in challenge can be signed and submitted; default 300 s. */
  readonly siwsTtlSec?: number;
}

export interface OAuthEndpoints {
  readonly authorization: string;
  readonly challenge: string;
  readonly token: string;
  readonly revocation: string;
  readonly introspection: string;
  readonly registration: string;
  readonly demoCallback: string;
}

/** The config with its derived values, computed once. */
export interface OAuthSettings {
  /** Without a trailing slash. */
  readonly issuer: string;
  /** The issuer's host: the SIWS `domain` a wallet shows the user. */
  readonly domain: string;
  readonly endpoints: OAuthEndpoints;
  readonly accessTokenTtlSec: number;
  readonly refreshTokenTtlSec: number;
  readonly codeTtlSec: number;
  readonly siwsTtlMs: number;
  readonly siwsChainId?: string;
}

/** RFC 6749 section 4.1.2 allows ten minutes; a minute is plenty for a redirect and shrinks the window of a leaked code. */
const MAX_CODE_TTL_SEC = 60;

export function oauthSettings(config: OAuthConfig): OAuthSettings {
  const issuer = config.issuer.replace(/\/+$/, '');
  return {
    issuer,
    // Throws on a malformed issuer, so a bad configuration stops start-up rather than a sign-in.
    domain: new URL(issuer).host,
    endpoints: {
      authorization: `${issuer}/oauth/authorize`,
      challenge: `${issuer}/oauth/authorize/challenge`,
      token: `${issuer}/oauth/token`,
      revocation: `${issuer}/oauth/revoke`,
      introspection: `${issuer}/oauth/introspect`,
      registration: `${issuer}/oauth/clients`,
      demoCallback: `${issuer}/oauth/demo/callback`,
    },
    accessTokenTtlSec: config.accessTokenTtlSec,
    refreshTokenTtlSec: config.refreshTokenTtlSec,
    codeTtlSec: Math.max(1, Math.min(MAX_CODE_TTL_SEC, config.codeTtlSec)),
    siwsTtlMs: (config.siwsTtlSec ?? 300) * 1000,
    ...(config.siwsChainId ? { siwsChainId: config.siwsChainId } : {}),
  };
}
