import { describe, expect, it } from 'vitest';
import { createTestSwapDeps } from '../../testing/index.js';
import { notifySwaps } from '../swaps/settle.js';
import { settleAll, swapAndExecute, withUser } from '../swaps/test-support.js';
import { deliverWebhooks, retryDelayMs } from './delivery.js';

describe('outbound notifications', () => {
  it('queue a signed delivery per terminal swap and retry with growing, jittered delays', async () => {
    const t = await createTestSwapDeps({ senderStatuses: [500, 503, 500, 200] });
    await t.oauth.clients.upsert({
      id: 'client-1',
      name: 'c',
      type: 'public',
      redirectUris: ['http://127.0.0.1/cb'],
      scopes: ['read', 'write'],
      webhookUrl: 'http://127.0.0.1:9/hook',
      createdAt: new Date(),
    });
    const user = await withUser(t);
    const built = await swapAndExecute(t, user, '1');
    await settleAll(t);
    expect((await notifySwaps(t.swapDeps))._unsafeUnwrap()).toEqual({ queued: 1 });
    expect((await notifySwaps(t.swapDeps))._unsafeUnwrap()).toEqual({ queued: 0 });
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const pass = (await deliverWebhooks(t.swapDeps))._unsafeUnwrap();
      expect(pass.delivered + pass.retrying).toBe(1);
      const d = t.webhookStore.list()[0]!;
      if (d.status === 'pending') {
        delays.push(d.nextAttemptAt.getTime() - t.clock.now().getTime());
        t.clock.advance(d.nextAttemptAt.getTime() - t.clock.now().getTime());
      }
    }
    expect(delays).toEqual([750, 1_500, 3_000]);
    const d = t.webhookStore.list()[0]!;
    expect(d).toMatchObject({ status: 'delivered', attempts: 4 });
    expect(t.sender.sent.map((s) => s.id)).toEqual(Array(4).fill(d.id));
    expect(JSON.parse(t.sender.sent[0]!.payload)).toMatchObject({
      type: 'swap.landed',
      data: {
        requestId: built.request.requestId,
        transactionId: built.transaction.transactionId,
        transactionStatus: 'finalized',
      },
    });
    expect(retryDelayMs({ webhookRetryBaseMs: 1000, webhookRetryMaxMs: 5000 }, 10, () => 1)).toBe(5000);
  });
});
