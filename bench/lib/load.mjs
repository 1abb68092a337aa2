// Load generation and its figures.
import autocannon from 'autocannon';
import { CONNECTIONS, DURATION } from './cli.mjs';
import { runNode } from './processes.mjs';

export function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

export function summary(result) {
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Open-loop load at a constant rate, from a child process (bench/paced.mjs); `options` such as `--bodies=`. */
export function paced(url, headers, rate, seconds, options = []) {
  const headerArgs = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return runNode('paced.mjs', [url, String(rate), String(seconds), ...options, ...headerArgs]);
}

export const lamportsToSol = (lamports) => {
  const s = String(lamports).padStart(10, '0');
  const fraction = s.slice(-9).replace(/0+$/, '');
  return `${s.slice(0, -9).replace(/^0+(?=\d)/, '')}${fraction ? `.${fraction}` : ''}`;
};

/** Answers other than 200, by measure and status, with one body each (for the notes). */
export const otherAnswers = {};
export function noteStatus(measure, status, body) {
  if (status === 200) return;
  const key = `${measure} ${status}`;
  otherAnswers[key] ??= { count: 0, example: String(body ?? '').slice(0, 200) };
  otherAnswers[key].count++;
}

export const round = (v, digits = 1) =>
  v === null || v === undefined || Number.isNaN(v) ? null : Number(v.toFixed(digits));

export async function json(baseUrl, apiKey, method, path, body) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}
