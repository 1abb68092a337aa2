import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBase58 } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthLoginMain } from '../../src/cli/oauth-login.js';
import { callSwap, createHarness, registerTestClient } from '../fixtures/oauth-harness.js';
import { type ServerProcess, startServerProcess, stopGracefully } from '../scale/process.js';
import { cli } from '../support/cli.js';

/** A solana-cli keypair file's bytes (seed, then public key) and the wallet's address. */
function solanaKeypair(): { bytes: number[]; address: string } {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d!, 'base64url');
  const publicKey = Buffer.from(jwk.x!, 'base64url');
  return { bytes: [...seed, ...publicKey], address: encodeBase58(publicKey) };
}

interface Printed {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  wallet: string;
  client_id: string;
}

/**
 * The CLI against a running server on the embedded localnet: every command's help, client
 * registration while the server holds the database, and `oauth login` for a generated wallet and
 * for a keypair file, whose tokens then call interface B.
 */
describe('cli.js while the server runs: help, register-client, oauth login', () => {
  let dir: string;
  let dataDir: string;
  let server: ServerProcess;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ta-login-'));
    dataDir = join(dir, 'data');
    server = await startServerProcess({ DATA_DIR: dataDir, LOCALNET_RPC_PORT: '0' });
  }, 90_000);
  afterAll(async () => {
    if (server) await stopGracefully(server);
    await rm(dir, { recursive: true, force: true });
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const quote = (token: string) =>
    fetch(`${server.baseUrl}/v1/project/swap?tokenPair=SOL-USDC&amount=1`, { headers: bearer(token) });

  it('lists every command in --help, in a bare call and in help; every command has --help', async () => {
    const env = { DATA_DIR: dataDir };
    for (const args of [['--help'], [], ['help'], ['-h']]) {
      const res = await cli(args, env);
      expect(res.code, args.join(' ')).toBe(0);
      for (const command of ['api-keys', 'tenants', 'register-client', 'oauth login', 'help']) {
        expect(res.out, `${args.join(' ')}: ${command}`).toContain(command);
      }
    }
    const helps: [string[], RegExp][] = [
      [['api-keys', '--help'], /cli\.js api-keys create --label/],
      [['api-keys', 'create', '--help'], /cli\.js api-keys rotate/],
      [['tenants', '--help'], /cli\.js tenants set <tenant>/],
      [['tenants', 'get', '-h'], /cli\.js tenants get <tenant>/],
      [['register-client', '--help'], /POST \/oauth\/clients/],
      [['oauth', 'login', '--help'], /authorization code \+ PKCE/],
      [['oauth', '--help'], /--keypair/],
    ];
    for (const [args, usage] of helps) {
      const res = await cli(args, env);
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.out, args.join(' ')).toMatch(usage);
    }
    expect((await cli(['tenants', '--help'], env)).out).not.toContain('api-keys');
    const unknown = await cli(['frobnicate'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown command "frobnicate"[\s\S]*oauth login/);
  }, 60_000);

  it('registers a client through the running server, and oauth login signs in with it', async () => {
    const redirectUri = 'http://127.0.0.1:9/callback';
    const registered = await cli(
      ['register-client', '--name', 'CLI app', '--redirect-uri', redirectUri, '--public', '--scope', 'read'],
      { DATA_DIR: dataDir },
    );
    expect(registered.code, registered.err).toBe(0);
    const client = JSON.parse(registered.out) as { client_id: string; token_endpoint_auth_method: string };
    expect(client.token_endpoint_auth_method).toBe('none');

    const login = await cli(
      ['oauth', 'login', '--client', client.client_id, '--redirect-uri', redirectUri, '--scope', 'read'],
      {
        DATA_DIR: dataDir,
      },
    );
    expect(login.code, login.err).toBe(0);
    const tokens = JSON.parse(login.out) as Printed;
    expect(tokens).toMatchObject({ client_id: client.client_id, scope: 'read', token_type: 'Bearer' });
    expect((await quote(tokens.access_token)).status).toBe(200);
  }, 60_000);

  it('oauth login with a generated wallet: tokens for the demo client that call interface B', async () => {
    const saved = join(dir, 'generated.json');
    const login = await cli(['oauth', 'login', '--save-keypair', saved], { DATA_DIR: dataDir });
    expect(login.code, login.err).toBe(0);
    const tokens = JSON.parse(login.out) as Printed;
    expect(tokens).toMatchObject({ client_id: 'demo-client', scope: 'read write', token_type: 'Bearer' });
    expect(tokens.access_token).toMatch(/^taat_/);
    expect(tokens.refresh_token).toMatch(/^tart_/);

    const res = await quote(tokens.access_token);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { quote: { outAmount: string } }).quote.outAmount).toMatch(/^\d+$/);
    // The saved wallet is the one the token speaks for, in solana-cli's format, readable by its owner only.
    const bytes = JSON.parse(await readFile(saved, 'utf8')) as number[];
    expect(bytes).toHaveLength(64);
    expect(encodeBase58(Uint8Array.from(bytes.slice(32)))).toBe(tokens.wallet);
    expect((await stat(saved)).mode & 0o777).toBe(0o600);
    // The write scope: execute is reached (an unknown request is the answer), not refused for scope.
    const execute = await fetch(`${server.baseUrl}/v1/swap/execute`, {
      method: 'POST',
      headers: { ...bearer(tokens.access_token), 'content-type': 'application/json' },
      body: JSON.stringify({ requestId: 'swreq_unknown', signedTransaction: 'AA==' }),
    });
    expect(execute.status).not.toBe(401);
    expect(execute.status).not.toBe(403);
  }, 60_000);

  it('oauth login with a solana-cli keypair file signs in as that wallet', async () => {
    const keypair = solanaKeypair();
    const path = join(dir, 'id.json');
    await writeFile(path, JSON.stringify(keypair.bytes));
    const login = await cli(['oauth', 'login', '--keypair', path, '--scope', 'read'], { DATA_DIR: dataDir });
    expect(login.code, login.err).toBe(0);
    const tokens = JSON.parse(login.out) as Printed;
    expect(tokens.wallet).toBe(keypair.address);
    expect(tokens.scope).toBe('read');
    expect((await quote(tokens.access_token)).status).toBe(200);
    const { oauth } = JSON.parse(await readFile(join(dataDir, 'dev-credentials.json'), 'utf8')) as {
      oauth: { clientId: string; clientSecret: string };
    };
    const introspected = await fetch(`${server.baseUrl}/oauth/introspect`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${oauth.clientId}:${oauth.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token: tokens.access_token }),
    });
    expect(((await introspected.json()) as { sub: string }).sub).toBe(keypair.address);

    const broken = join(dir, 'broken.json');
    await writeFile(
      broken,
      JSON.stringify([...keypair.bytes.slice(0, 32), ...solanaKeypair().bytes.slice(32)]),
    );
    const refused = await cli(['oauth', 'login', '--keypair', broken], { DATA_DIR: dataDir });
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/public half does not match its secret/);
  }, 60_000);
});

describe('oauth login off the localnet', () => {
  it('refuses to generate a wallet, and signs in with a given keypair', async () => {
    // An authorization server whose sign-in names no localnet chain, as a server on devnet's.
    const h = createHarness({ siwsChainId: null });
    const client = await registerTestClient(h, { redirectUris: ['https://client.example/callback'] });
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) };
    const args = ['--url', h.issuer, '--client', client.clientId, '--redirect-uri', client.redirectUri];
    const env = { OAUTH_CLIENT_SECRET: client.clientSecret!, DATA_DIR: '/nonexistent' };

    expect(await oauthLoginMain(args, env, io, h.fetch as typeof fetch)).toBe(2);
    expect(err.join('')).toMatch(
      /does not run on a localnet: sign in with your own wallet \(--keypair <file>\)/,
    );
    expect(out).toEqual([]);

    const dir = await mkdtemp(join(tmpdir(), 'ta-login-off-'));
    try {
      const keypair = solanaKeypair();
      const path = join(dir, 'id.json');
      await writeFile(path, JSON.stringify(keypair.bytes));
      expect(await oauthLoginMain([...args, '--keypair', path], env, io, h.fetch as typeof fetch)).toBe(0);
      const tokens = JSON.parse(out.join('')) as Printed;
      expect(tokens.wallet).toBe(keypair.address);
      const called = await callSwap(h, 'GET', tokens.access_token);
      expect(called.status).toBe(200);
      expect(called.body.subject).toBe(keypair.address);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
