import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness.close();
});

describe('dev-credentials.json', () => {
  it("names the localnet's websocket (its RPC port + 1) and its mints by ticker", async () => {
    const written = JSON.parse(await readFile(harness.server.credentialsPath, 'utf8'));
    const rpcPort = Number(new URL(written.rpcUrl).port);
    expect(written.wsUrl).toBe(`ws://127.0.0.1:${rpcPort + 1}`);
    const { stable, project } = harness.server.composition.deps.currencies;
    expect(written.mints).toEqual({ [stable.code]: stable.mint, [project.code]: project.mint });
    expect(Object.keys(written.mints)).toEqual(['USDC', 'PROJ']);
    expect(written.apiKey).toBe(harness.apiKey);

    // A websocket server takes the upgrade there (the localnet's own tests subscribe through it).
    const { hostname, port } = new URL(written.wsUrl);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const upgrade = request({
        host: hostname,
        port,
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-key': randomBytes(16).toString('base64'),
          'sec-websocket-version': '13',
        },
      });
      upgrade.once('upgrade', (response, socket) => {
        socket.destroy();
        resolve(response.statusCode);
      });
      upgrade.once('response', (response) => resolve(response.statusCode));
      upgrade.once('error', reject);
      upgrade.end();
    });
    expect(status).toBe(101);
  });
});
