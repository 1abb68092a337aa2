// The service's interface A measures: the tracking read and the donation end to end.
import { DURATION, log } from './cli.mjs';
import { cannon, lamportsToSol, noteStatus, paced, round, summary } from './load.mjs';

/** Tracking at peak, then at half the peak rate (autocannon's overallRate, and open loop). */
export async function measureTrack({ results, meta, phase, baseUrl, headers, trackId }) {
  const url = `${baseUrl}/v1/api/transaction/track/${trackId}`;
  await cannon({ url, headers, duration: 2 });
  const r = summary(await phase('track', () => cannon({ url, headers })));
  const ceiling = results['bare-hono'].reqPerSec;
  results.track = {
    reqPerSec: r.reqPerSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    ceilingReqPerSec: ceiling,
    ratio: r.reqPerSec / ceiling,
  };
  meta.track = r;
  const half = summary(await cannon({ url, headers, overallRate: Math.max(1, Math.floor(r.reqPerSec / 2)) }));
  results['track@half-peak-rate'] = {
    reqPerSec: half.reqPerSec,
    p50Ms: half.p50Ms,
    p99Ms: half.p99Ms,
    ceilingReqPerSec: r.reqPerSec,
    ratio: half.reqPerSec / r.reqPerSec,
  };
  meta.trackHalfRate = half;
  const even = await phase('track-paced', () => paced(url, headers, Math.max(1, r.reqPerSec / 2), DURATION));
  results['track@half-peak-rate-paced'] = {
    reqPerSec: even.reqPerSec,
    p50Ms: even.p50Ms,
    p99Ms: even.p99Ms,
    ceilingReqPerSec: r.reqPerSec,
    ratio: even.reqPerSec / r.reqPerSec,
  };
  meta.trackHalfRatePaced = even;
  log(
    `track: ${round(r.reqPerSec, 0)} req/s, p99 ${r.p99Ms} ms; at half rate p99 ${half.p99Ms} ms (autocannon overallRate), ${round(even.p99Ms, 1)} ms (paced)`,
  );
}

/** Donation end to end: every request a fresh transfer (rotating accounts, distinct amounts). */
export async function measureDonate({ results, meta, phase, baseUrl, headers, accounts }) {
  let n = 0;
  const ids = new Set();
  let ok = 0;
  const requests = [
    {
      method: 'POST',
      path: '/v1/api/donate/sol',
      headers,
      setupRequest: (req) => {
        n++;
        const amount = lamportsToSol(n);
        return {
          ...req,
          body: JSON.stringify({ account: accounts[n % accounts.length], amount, priority: 'Medium' }),
        };
      },
      onResponse: (status, body) => {
        noteStatus('donate-sol', status, body);
        if (status !== 200) return;
        ok++;
        try {
          ids.add(JSON.parse(body).transactionId);
        } catch {}
      },
    },
  ];
  const r = summary(await phase('donate', () => cannon({ url: baseUrl, requests })));
  const ceiling = results['raw-litesvm'].reqPerSec;
  results['donate-sol'] = {
    reqPerSec: r.reqPerSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    ceilingReqPerSec: ceiling,
    ratio: r.reqPerSec / ceiling,
  };
  meta.donate = { ...r, accepted: ok, distinctTransactionIds: ids.size };
  if (r.non2xx > 0 || r.errors > 0)
    meta.notes.push(`donate-sol: ${r.non2xx} non-2xx answers, ${r.errors} errors/timeouts`);
  log(
    `donate SOL: ${round(r.reqPerSec, 0)} req/s, p99 ${r.p99Ms} ms (${ok} accepted, ${ids.size} distinct ids)`,
  );
}
