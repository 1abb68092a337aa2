import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgOAuthStore } from '@token-actions/adapters';
import { openDatabase } from '@token-actions/runtime';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/register-client.js';
import { hashSecret } from '../../src/oauth/secrets.js';

describe('register-client CLI', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  function capture() {
    let out = '';
    let err = '';
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      err += String(chunk);
      return true;
    });
    return {
      done() {
        stdout.mockRestore();
        stderr.mockRestore();
        return { out, err };
      },
    };
  }

  it('registers a confidential client in the embedded database and prints its credentials once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'register-client-'));
    dirs.push(dataDir);
    const io = capture();
    const code = await main(
      ['--name', 'My app', '--redirect-uri', 'https://app.example/cb', '--scope', 'read'],
      { DATA_DIR: dataDir },
    );
    const { out, err } = io.done();
    expect(code, err).toBe(0);
    const printed = JSON.parse(out) as { client_id: string; client_secret: string; scope: string };
    expect(printed.client_secret).toMatch(/^tacs_/);
    expect(printed.scope).toBe('read');

    // The embedded default: a PostgreSQL server under DATA_DIR/postgres, stopped when the CLI ended.
    await expect(stat(join(dataDir, 'postgres', 'cluster', 'postmaster.pid'))).rejects.toThrow();
    const sql = await openDatabase({ DATA_DIR: dataDir });
    try {
      const stored = (await createPgOAuthStore(sql).clients.get(printed.client_id))._unsafeUnwrap();
      expect(stored).toMatchObject({
        name: 'My app',
        type: 'confidential',
        redirectUris: ['https://app.example/cb'],
      });
      expect(stored?.secretHash).toBe(hashSecret(printed.client_secret));
    } finally {
      await sql.close();
    }
  }, 30_000);

  it('refuses bad input with usage and exit code 2, touching no database', async () => {
    const io = capture();
    const missing = await main(['--name', 'x'], { DATA_DIR: '/nonexistent/never-created' });
    const unknown = await main(['--bogus'], {});
    const { err } = io.done();
    expect(missing).toBe(2);
    expect(unknown).toBe(2);
    expect(err).toContain('Usage: cli.js register-client');
  });
});
