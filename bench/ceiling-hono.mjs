// Ceiling of the HTTP stack: a bare Hono route on @hono/node-server, the same versions the
// service uses (resolved from apps/server), answering a small JSON body. Prints `LISTENING <port>`.
//
//   node bench/ceiling-hono.mjs
import { importFrom } from './resolve.mjs';

const load = (name) => importFrom('apps/server', name);
const { Hono } = await load('hono');
const { serve } = await load('@hono/node-server');

const app = new Hono();
// Same shape of answer as a tracking read: a JSON object of a few hundred bytes.
const body = {
  transactionId: '5'.repeat(88),
  explorerUrl: `https://explorer.solana.com/tx/${'5'.repeat(88)}?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899`,
  status: 'finalized',
};
app.get('/ping/:id', (c) => c.json({ ...body, id: c.req.param('id') }));

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`LISTENING ${info.port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
