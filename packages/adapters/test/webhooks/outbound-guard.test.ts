import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOutboundGuard,
  createWebhookSender,
  type HostResolver,
  refusedAddress,
} from '../../src/webhooks/index.js';

/** Names that resolve where a test says, as a hostile DNS zone would. */
function zone(records: Record<string, string[]>): HostResolver {
  return async (host) => {
    const found = records[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
  };
}

const REFUSED_ADDRESSES = [
  ['127.0.0.1', 'loopback'],
  ['127.8.9.10', 'loopback'],
  ['::1', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.5.4', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'metadata'],
  ['169.254.10.1', 'link-local'],
  ['fe80::1', 'link-local'],
  ['fd00:ec2::254', 'metadata'],
  ['fc00::1', 'unique-local'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['224.0.0.1', 'multicast'],
  ['ff02::1', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['::', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:a00:1', 'private'],
  ['::ffff:169.254.169.254', 'metadata'],
] as const;

describe('refusedAddress (ipaddr.js classification)', () => {
  it.each(REFUSED_ADDRESSES)('refuses %s as %s', (address, kind) => {
    expect(refusedAddress(address)).toContain(kind);
  });

  it('judges an IPv4-mapped IPv6 address as the IPv4 address it carries', () => {
    expect(refusedAddress('::ffff:7f00:1')).toBe('a loopback address (127.0.0.1)');
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:1.1.1.1'])('allows public %s', (a) => {
    expect(refusedAddress(a)).toBeUndefined();
  });
});

describe('the SSRF guard at registration (check)', () => {
  const guard = createOutboundGuard({
    allowPrivate: false,
    resolve: zone({
      'hooks.example.com': ['93.184.216.34'],
      'internal.example.com': ['10.1.2.3'],
      'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
      'metadata.example.com': ['169.254.169.254'],
      'v6.example.com': ['::ffff:127.0.0.1'],
    }),
  });
  const refusal = async (url: string) => {
    const checked = await guard.check(url);
    return checked.isErr() ? `${checked.error.code}: ${checked.error.message}` : 'allowed';
  };

  it.each([
    ['http://127.0.0.1:6379/', 'loopback address (127.0.0.1)'],
    ['http://[::1]:5432/', 'loopback address (::1)'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata address (169.254.169.254)'],
    ['http://[fd00:ec2::254]/', 'metadata address (fd00:ec2::254)'],
    ['https://10.0.0.1/hook', 'private address (10.0.0.1)'],
    ['https://100.64.1.1/hook', 'carrier-grade NAT'],
    ['https://0.0.0.0/hook', 'unspecified address'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback address (127.0.0.1)'],
    // The WHATWG parser reads a bare number as an IPv4 address: 2130706433 is 127.0.0.1.
    ['http://2130706433/', 'loopback address (127.0.0.1)'],
    ['http://0x7f.1/', 'loopback address (127.0.0.1)'],
    ['https://internal.example.com/hook', 'resolves to a private address (10.1.2.3)'],
    ['https://rebind.example.com/hook', 'resolves to a loopback address (127.0.0.1)'],
    ['https://metadata.example.com/', 'metadata address'],
    ['https://v6.example.com/', 'loopback address (127.0.0.1)'],
  ])('refuses %s', async (url, why) => {
    const answer = await refusal(url);
    expect(answer).toMatch(/^INVALID_INPUT: /);
    expect(answer).toContain(why);
  });

  it('refuses a name that resolves to 127.0.0.1 through the system resolver (localhost)', async () => {
    const system = createOutboundGuard({ allowPrivate: false });
    const checked = await system.check('http://localhost:8080/hook');
    expect(checked._unsafeUnwrapErr().message).toMatch(/localhost resolves to a loopback address/);
  });

  it('refuses what is not http(s) and names it cannot resolve', async () => {
    expect(await refusal('file:///etc/passwd')).toBe('INVALID_INPUT: webhook URL must use https');
    expect(await refusal('gopher://hooks.example.com/')).toBe('INVALID_INPUT: webhook URL must use https');
    expect(await refusal('https://nowhere.example.com/')).toContain('cannot be resolved');
  });

  it('allows a public host, and private ones only with the development setting', async () => {
    expect(await refusal('https://hooks.example.com/hook')).toBe('allowed');
    const dev = createOutboundGuard({ allowPrivate: true });
    expect((await dev.check('http://127.0.0.1:9999/hook')).isOk()).toBe(true);
  });
});

describe('the SSRF guard at delivery (the sender connects only to the address it checked)', () => {
  let receiver: Server;
  let port = 0;
  const received: IncomingMessage[] = [];
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received.push(req);
      req.resume();
      res.statusCode = 204;
      res.end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  const delivery = (url: string) => ({
    id: `msg_${Math.random().toString(36).slice(2)}`,
    url,
    clientId: 'client_1',
    payload: '{"type":"swap.landed"}',
    timestamp: new Date(),
  });
  const secretFor = () => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

  it('refuses loopback by address, by localhost, and by a name resolving to 127.0.0.1; nothing arrives', async () => {
    const sender = createWebhookSender({
      secretFor,
      guard: createOutboundGuard({
        allowPrivate: false,
        resolve: zone({ 'hooks.attacker.test': ['127.0.0.1'] }),
      }),
    });
    const before = received.length;
    for (const url of [
      `http://127.0.0.1:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      `http://hooks.attacker.test:${port}/hook`,
    ]) {
      const sent = await sender.send(delivery(url));
      expect(sent._unsafeUnwrapErr().message, url).toMatch(/loopback address \(127\.0\.0\.1\)/);
    }
    const viaLocalhost = await createWebhookSender({
      secretFor,
      guard: createOutboundGuard({ allowPrivate: false }),
    }).send(delivery(`http://localhost:${port}/hook`));
    expect(viaLocalhost._unsafeUnwrapErr().message).toMatch(/localhost resolves to a loopback address/);
    expect(received.length).toBe(before);
  });

  it('refuses when the name re-resolves to a private address between the check and the connect', async () => {
    let calls = 0;
    const rebinding: HostResolver = async () => {
      calls++;
      return [{ address: calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    const sender = createWebhookSender({
      secretFor,
      guard: createOutboundGuard({ allowPrivate: false, resolve: rebinding }),
    });
    const before = received.length;
    const sent = await sender.send(delivery(`http://rebind.attacker.test:${port}/hook`));
    expect(sent.isErr()).toBe(true);
    expect(calls).toBe(2);
    expect(received.length).toBe(before);
  });

  it('connects to the checked address itself: a name only the guard resolves reaches the receiver', async () => {
    const sender = createWebhookSender({
      secretFor,
      guard: createOutboundGuard({
        allowPrivate: true,
        resolve: zone({ 'hooks.dev.test': ['127.0.0.1'] }),
      }),
    });
    const sent = await sender.send(delivery(`http://hooks.dev.test:${port}/hook`));
    expect(sent._unsafeUnwrap()).toEqual({ statusCode: 204 });
    const last = received.at(-1)!;
    expect(last.headers.host).toBe(`hooks.dev.test:${port}`);
    expect(last.headers['webhook-signature']).toMatch(/^v1,/);
  });
});
