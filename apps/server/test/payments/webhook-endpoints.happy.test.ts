import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStandardWebhook } from '@token-actions/adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOf, asKey, sleep } from '../admin/support.js';
import { type Harness, startHarness } from '../support/harness.js';

interface Received {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly status: number;
}

/**
 * A tenant's endpoint over HTTP on the real service (in-process worker loops): a donation's status
 * changes arrive signed, in order, and a receiver that fails once gets the same event again with
 * the same webhook-id. The receiver listens on 127.0.0.1, so the harness sets WEBHOOK_ALLOW_PRIVATE.
 */
describe('interface A webhooks: a tenant receives its transactions’ status changes', () => {
  let h: Harness;
  let receiver: Server;
  let url: string;
  const received: Received[] = [];
  /** Status codes the receiver answers with, in turn; 204 once they run out. */
  const script: number[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const status = script.shift() ?? 204;
        received.push({ headers: req.headers as Record<string, string>, body, status });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    h = await startHarness({
      ADMIN_TOKEN: 'admin-token-for-webhook-happy-tests-0123456',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '50',
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await new Promise<void>((r) => receiver?.close(() => r()));
  });

  it('delivers pending → … → finalized, signed with the secret shown at registration, and retries with the same webhook-id', async () => {
    const admin = adminOf(h);
    const tenant = asKey(h.baseUrl, (await admin.createKey('hooks', 'hooks-co')).apiKey);
    const other = asKey(h.baseUrl, (await admin.createKey('other', 'other-co')).apiKey);
    const endpoint = (await tenant('POST', '/v1/api/webhooks', { url })).json as {
      id: string;
      secret: string;
    };
    // Another tenant's endpoint on the same receiver must get none of this tenant's events.
    const foreign = (await other('POST', '/v1/api/webhooks', { url: `${url}/other` })).json as { id: string };

    // The receiver fails the first event it is sent once.
    script.push(500);
    const account = (await tenant('POST', '/v1/api/accounts', {})).json.publicKey as string;
    expect(
      (await tenant('POST', `/v1/api/accounts/${account}/airdrop`, { currency: 'SOL', amount: '2' })).status,
    ).toBe(200);
    const donation = await tenant('POST', '/v1/api/donate/sol', { account, amount: '0.5', priority: 'Low' });
    expect(donation.status).toBe(200);
    const id = donation.json.transactionId as string;

    // Done when the finalized event and the retry of the failed attempt have both been delivered
    // (a retry can land after a later event: receivers order by `timestamp`, not by arrival).
    const done = () => {
      const ok = received.filter((r) => r.status < 300);
      const failedId = received.find((r) => r.status === 500)?.headers['webhook-id'];
      return (
        ok.some((r) => r.body.includes(id) && JSON.parse(r.body).type === 'transaction.finalized') &&
        failedId !== undefined &&
        ok.some((r) => r.headers['webhook-id'] === failedId)
      );
    };
    const until = Date.now() + 30_000;
    while (!done() && Date.now() < until) await sleep(100);
    expect(done()).toBe(true);

    const mine = received.filter((r) => r.headers['webhook-id']?.startsWith(`msg_${endpoint.id}_`));
    expect(received.filter((r) => r.headers['webhook-id']?.startsWith(`msg_${foreign.id}_`))).toEqual([]);
    const verifier = createStandardWebhook(endpoint.secret);
    for (const r of mine) expect(verifier.verify(r.body, r.headers)).toMatchObject({ ok: true });

    // The first attempt was answered 500 and sent again: same id, same body.
    const [failed] = mine;
    expect(failed?.status).toBe(500);
    const retried = mine.filter((r) => r.headers['webhook-id'] === failed!.headers['webhook-id']);
    expect(retried.map((r) => r.status)).toEqual([500, 204]);
    expect(retried[1]!.body).toBe(failed!.body);

    // Each status change of this transaction delivered once; by `timestamp`, each starts where
    // the one before it ended, from pending to finalized.
    const delivered = mine.filter((r) => r.status < 300).map((r) => JSON.parse(r.body));
    const forTx = delivered
      .filter((e) => e.data.transactionId === id)
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    const statuses = forTx.map((e) => e.data.status);
    expect(statuses.at(-1)).toBe('finalized');
    expect(new Set(statuses).size).toBe(statuses.length);
    for (const e of forTx) expect(e.type).toBe(`transaction.${e.data.status}`);
    expect(forTx[0]!.data.previousStatus).toBe('pending');
    for (let i = 1; i < forTx.length; i++)
      expect(forTx[i]!.data.previousStatus).toBe(forTx[i - 1]!.data.status);
  }, 60_000);
});
