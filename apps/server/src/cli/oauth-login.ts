/**
 * `oauth login`: the authorization-code flow with PKCE (RFC 6749 section 4.1, RFC 7636 S256)
 * against a running server, signed in by a wallet held here, printing the tokens for interface B.
 * It does what the consent page does in a browser: asks for the Sign-In With Solana challenge of
 * this very request, signs it, submits the consent form, and redeems the code.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
} from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { encodeBase58 } from '@token-actions/core';
import {
  errorMessage,
  type Io,
  processIo,
  readBody,
  readDevCredentials,
  SERVER_HELP,
  serverTarget,
  UsageError,
} from './target.js';

export const OAUTH_LOGIN_USAGE = `Usage: cli.js oauth login [--keypair <solana-cli keypair.json>] [--scope "read write"]
                      [--client <client id> --redirect-uri <url>] [--save-keypair <file>] [--url <base url>]

Signs in to interface B with a Solana wallet (authorization code + PKCE S256) and prints the
tokens as JSON: access_token, refresh_token, expires_in, scope, and the wallet they speak for.
  --keypair       the wallet: a solana-cli keypair file (64-byte JSON array); works on any chain.
                  Without it a new wallet is made, on the localnet only.
  --save-keypair  where to write the new wallet (solana-cli format, mode 600), to sign swaps with
  --scope         what to ask for (default: read write)
  --client        the OAuth client (default: the demo client of $DATA_DIR/dev-credentials.json),
                  with one of its --redirect-uri; a confidential client's secret comes from
                  OAUTH_CLIENT_SECRET, never a flag
${SERVER_HELP}

Then: curl -H "Authorization: Bearer <access_token>" "<base url>/v1/project/swap?tokenPair=SOL-USDC&amount=1"`;

interface Wallet {
  readonly address: string;
  /** solana-cli's format: the 32-byte seed, then the 32-byte public key. */
  readonly secretKey: Uint8Array;
  readonly privateKey: KeyObject;
}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function walletOf(seed: Uint8Array, publicKey: Uint8Array): Wallet {
  const privateKey = createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: base64url(seed), x: base64url(publicKey) },
    format: 'jwk',
  });
  const derived = createPublicKey(privateKey).export({ format: 'jwk' }).x;
  if (derived !== base64url(publicKey)) {
    throw new UsageError('the keypair file is not a key pair: its public half does not match its secret');
  }
  const secretKey = new Uint8Array(64);
  secretKey.set(seed);
  secretKey.set(publicKey, 32);
  return { address: encodeBase58(publicKey), secretKey, privateKey };
}

async function readKeypair(path: string): Promise<Wallet> {
  let bytes: unknown;
  try {
    bytes = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read the keypair file ${path}: ${(error as Error).message}`);
  }
  if (
    !Array.isArray(bytes) ||
    bytes.length !== 64 ||
    !bytes.every((b) => Number.isInteger(b) && b >= 0 && b < 256)
  ) {
    throw new UsageError(`${path} is not a solana-cli keypair file (a JSON array of 64 bytes)`);
  }
  const secret = Uint8Array.from(bytes as number[]);
  return walletOf(secret.subarray(0, 32), secret.subarray(32));
}

function newWallet(): Wallet {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  return walletOf(Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url'));
}

interface Client {
  readonly id: string;
  readonly secret?: string;
  readonly redirectUri: string;
}

class Refused extends Error {}

/** Runs the flow; resolves to the exit code (0 signed in, 1 refused or unreachable, 2 usage). */
export async function oauthLoginMain(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = processIo,
  fetchImpl: typeof fetch = fetch,
): Promise<number> {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        keypair: { type: 'string' },
        'save-keypair': { type: 'string' },
        scope: { type: 'string' },
        client: { type: 'string' },
        'redirect-uri': { type: 'string' },
        url: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      io.out(`${OAUTH_LOGIN_USAGE}\n`);
      return 0;
    }
    if (values.keypair && values['save-keypair']) {
      throw new UsageError('--save-keypair writes a new wallet; --keypair names an existing one');
    }
    const file = await readDevCredentials(env);
    const { baseUrl } = serverTarget(values.url, env, file);
    if (!baseUrl) throw new UsageError('no server URL: pass --url or set TOKEN_ACTIONS_URL or DATA_DIR');
    const client = clientOf(values, env, file.oauth);
    const wallet = values.keypair ? await readKeypair(values.keypair) : newWallet();
    const tokens = await login({
      baseUrl,
      client,
      wallet,
      generated: !values.keypair,
      scope: values.scope ?? 'read write',
      fetchImpl,
    });
    if (values['save-keypair']) {
      await writeFile(values['save-keypair'], `${JSON.stringify([...wallet.secretKey])}\n`, { mode: 0o600 });
    }
    io.out(`${JSON.stringify({ ...tokens, wallet: wallet.address, client_id: client.id }, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${OAUTH_LOGIN_USAGE}\n`);
      return 2;
    }
    if (error instanceof Refused) {
      io.err(`oauth login: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

function clientOf(
  values: { client?: string | undefined; 'redirect-uri'?: string | undefined },
  env: NodeJS.ProcessEnv,
  demo: { clientId: string; clientSecret: string; redirectUri: string } | undefined,
): Client {
  if (!values.client || values.client === demo?.clientId) {
    if (!demo) {
      throw new UsageError(
        'no demo client: pass --client and --redirect-uri, or DATA_DIR of a localnet (its dev-credentials.json)',
      );
    }
    return {
      id: demo.clientId,
      secret: demo.clientSecret,
      redirectUri: values['redirect-uri'] ?? demo.redirectUri,
    };
  }
  if (!values['redirect-uri']) throw new UsageError('--client needs one of its --redirect-uri');
  return {
    id: values.client,
    ...(env.OAUTH_CLIENT_SECRET ? { secret: env.OAUTH_CLIENT_SECRET } : {}),
    redirectUri: values['redirect-uri'],
  };
}

interface Tokens {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in: number;
  readonly refresh_token?: string;
  readonly scope: string;
}

async function login(input: {
  baseUrl: string;
  client: Client;
  wallet: Wallet;
  generated: boolean;
  scope: string;
  fetchImpl: typeof fetch;
}): Promise<Tokens> {
  const { baseUrl, client, wallet, fetchImpl } = input;
  const call = async (path: string, init: RequestInit) => {
    try {
      return await fetchImpl(`${baseUrl}${path}`, { ...init, redirect: 'manual' });
    } catch (error) {
      throw new Refused(`cannot reach ${baseUrl}: ${(error as Error).message}`);
    }
  };
  const verifier = base64url(randomBytes(32));
  const request = {
    response_type: 'code',
    client_id: client.id,
    redirect_uri: client.redirectUri,
    scope: input.scope,
    state: base64url(randomBytes(16)),
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  };

  // 1. The Sign-In With Solana message of this very request.
  const challengeRes = await call('/oauth/authorize/challenge', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...request, address: wallet.address }),
  });
  const challenge = (await readBody(challengeRes)) as {
    message: string;
    nonce: string;
    issuedAt: string;
    expirationTime: string;
  };
  if (!challengeRes.ok) throw new Refused(`the sign-in challenge was refused: ${errorMessage(challenge)}`);
  // A wallet made here holds nothing and is nobody's: the server says which chain the sign-in is for.
  if (input.generated && !/^Chain ID: localnet$/m.test(challenge.message)) {
    throw new UsageError(
      `${baseUrl} does not run on a localnet: sign in with your own wallet (--keypair <file>) instead of a generated one`,
    );
  }

  // 2. The consent form, approved with the wallet's signature; the answer redirects with the code.
  const signature = sign(null, Buffer.from(challenge.message, 'utf8'), wallet.privateKey);
  const consent = await call('/oauth/authorize', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ...request,
      decision: 'approve',
      address: wallet.address,
      signature: signature.toString('base64'),
      nonce: challenge.nonce,
      issued_at: challenge.issuedAt,
      expiration_time: challenge.expirationTime,
    }),
  });
  const location = consent.headers.get('location');
  if (consent.status !== 303 || !location) {
    const page = await consent.text();
    const detail = /<p>([^<]*)<\/p>/.exec(page)?.[1] ?? `status ${consent.status}`;
    throw new Refused(`the authorization was refused: ${detail}`);
  }
  const answer = new URL(location).searchParams;
  const code = answer.get('code');
  if (!code) {
    throw new Refused(
      `the authorization was refused: ${answer.get('error_description') ?? answer.get('error')}`,
    );
  }
  if (answer.get('state') !== request.state) throw new Refused('the authorization answered another request');

  // 3. The code and the PKCE verifier for the tokens, authenticated as the client.
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
  });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client.secret) {
    const pair = `${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    form.set('client_id', client.id);
  }
  const tokenRes = await call('/oauth/token', { method: 'POST', headers, body: form });
  const tokens = await readBody(tokenRes);
  if (!tokenRes.ok) throw new Refused(`the token request was refused: ${errorMessage(tokens)}`);
  return tokens as Tokens;
}
