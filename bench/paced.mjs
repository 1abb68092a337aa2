// Open-loop load at a constant rate over raw keep-alive sockets: request i is due at
// start + i/rate and its latency is measured from that due time (no coordinated omission), so a
// stall of the server shows up in every request that should have been sent during it.
// autocannon's `overallRate` is closed-loop per connection, with a per-second budget.
// Prints one JSON line.
//
//   node bench/paced.mjs <url> <rate> <seconds> [--bodies=<file>] [header: value]...
//
// With --bodies, request i is a POST of line i of the file (one body per line, as many lines as
// requests, warm-up included: rate x (seconds + 1)); without, every request is the same GET.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

const [url, rateArg, secondsArg, ...rest] = process.argv.slice(2);
const bodiesFile = rest.find((a) => a.startsWith('--bodies='))?.slice('--bodies='.length);
const headerArgs = rest.filter((a) => !a.startsWith('--bodies='));
const target = new URL(url);
const rate = Number(rateArg);
const seconds = Number(secondsArg);
const headerLines = headerArgs.map((h) => `${h}\r\n`).join('');
const path = `${target.pathname}${target.search}`;
const get = Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${target.host}\r\n${headerLines}\r\n`);
// Every request is built before the clock starts, so building one never delays another.
const bodies = bodiesFile ? readFileSync(bodiesFile, 'utf8').split('\n').filter(Boolean) : undefined;
const post = (body) =>
  Buffer.from(
    `POST ${path} HTTP/1.1\r\nHost: ${target.host}\r\n${headerLines}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
const requests = bodies?.map(post);
const requestFor = (i) => requests?.[i] ?? get;

// The first second warms up (sockets opening, JIT): sent, but left out of the figures.
const WARMUP_SEC = 1;
const total = Math.floor(rate * (seconds + WARMUP_SEC));
if (requests && requests.length < total) {
  console.error(`--bodies has ${requests.length} lines; ${total} requests need one each`);
  process.exit(2);
}
const warmup = Math.floor(rate * WARMUP_SEC);
const latencies = new Float64Array(total);
const dueAt = new Float64Array(total);
let done = 0;
const failedAt = [];
const failedMeasured = () => failedAt.filter((i) => i >= warmup).length;
let next = 0;
let timedOut = 0;
const idle = [];
let open = 0;
const MAX_SOCKETS = 512;

function socket() {
  const s = connect({ host: target.hostname, port: Number(target.port) });
  s.setNoDelay(true);
  open++;
  let buffer = '';
  let current = -1;
  s.on('data', (d) => {
    buffer += d.toString('latin1');
    const head = buffer.indexOf('\r\n\r\n');
    if (head < 0) return;
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(buffer.slice(0, head))?.[1] ?? 0);
    if (buffer.length < head + 4 + length) return;
    const ok = buffer.startsWith('HTTP/1.1 200');
    buffer = buffer.slice(head + 4 + length);
    // An answer to no request: the server's 408 to a socket opened ahead and never used, before it
    // closes it. The socket is not idle any more.
    if (current < 0) {
      const i = idle.indexOf(s);
      if (i >= 0) idle.splice(i, 1);
      return;
    }
    latencies[current] = performance.now() - dueAt[current];
    if (!ok) {
      failedAt.push(current);
    }
    done++;
    current = -1;
    s.send = undefined;
    idle.push(s);
    pump();
  });
  const lost = () => {
    if (current >= 0) {
      failedAt.push(current);
      done++;
      latencies[current] = Number.NaN;
      current = -1;
    }
  };
  s.on('error', lost);
  s.on('close', () => {
    lost();
    open--;
    const i = idle.indexOf(s);
    if (i >= 0) idle.splice(i, 1);
  });
  s.assign = (i) => {
    current = i;
    s.write(requestFor(i));
  };
  return s;
}

const start = performance.now() + 50;
function pump() {
  const now = performance.now();
  while (next < total && start + (next * 1000) / rate <= now) {
    const s = idle.pop() ?? (open < MAX_SOCKETS ? socket() : undefined);
    if (!s) return; // every socket busy: the request waits, and its latency grows from its due time
    dueAt[next] = start + (next * 1000) / rate;
    s.assign(next++);
  }
}

for (let i = 0; i < 64; i++) idle.push(socket());
await new Promise((resolve) => {
  const tick = () => {
    pump();
    if (done >= total) return resolve();
    // A server that stops answering: give up 30 s after the last request was due.
    if (performance.now() > start + (seconds + WARMUP_SEC) * 1000 + 30_000) {
      timedOut = total - done;
      return resolve();
    }
    if (next < total) {
      const wait = start + (next * 1000) / rate - performance.now();
      setTimeout(tick, Math.max(0, Math.min(wait, 5)));
    } else setTimeout(tick, 5);
  };
  tick();
});
const elapsed = (performance.now() - start) / 1000 - WARMUP_SEC;

const measured = latencies.subarray(warmup);
const sorted = Array.from(measured)
  .filter((v) => !Number.isNaN(v))
  .sort((a, b) => a - b);
const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? null;
// Where the slow ones were: the worst requests with their due time (s since start).
const worst = Array.from(measured, (ms, i) => ({ ms, at: (dueAt[i + warmup] - start) / 1000 - WARMUP_SEC }))
  .filter((x) => !Number.isNaN(x.ms))
  .sort((a, b) => b.ms - a.ms)
  .slice(0, 5)
  .map((x) => ({ ms: Number(x.ms.toFixed(1)), atSec: Number(x.at.toFixed(2)) }));
console.log(
  JSON.stringify({
    // Answered with a 200, per second (lost and non-200 answers are counted in non2xx).
    reqPerSec: (total - warmup - failedMeasured() - timedOut) / elapsed,
    p50Ms: pct(50),
    p90Ms: pct(90),
    p99Ms: pct(99),
    maxMs: pct(100),
    requests: sorted.length,
    non2xx: failedMeasured(),
    errors: 0,
    sockets: open,
    unanswered: timedOut,
    worst,
  }),
);
process.exit(0);
