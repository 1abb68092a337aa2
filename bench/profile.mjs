// Summarises a V8 .cpuprofile (node --cpu-prof): self time per function and per package, so the
// performance journal (docs/perf/) can say where the time goes.
//
//   node bench/profile.mjs <file.cpuprofile> [top]
import { readFile } from 'node:fs/promises';

function where(url) {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
  if (pkg) return pkg;
  const ws = /\/(packages|apps)\/([^/]+)\//.exec(path);
  if (ws) return `${ws[1]}/${ws[2]}`;
  if (path.startsWith('node:')) return 'node';
  return path.split('/').slice(-2).join('/');
}

/**
 * `window` ({fromMs, toMs}, milliseconds since the profile started) keeps only the samples of one
 * phase, e.g. the seconds a load generator ran.
 */
export async function summarizeProfile(file, top = 20, window = undefined) {
  const profile = JSON.parse(await readFile(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const inclusive = new Map();
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byPackage = new Map();
  let total = 0;
  let clock = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    clock += dt;
    if (window && (clock / 1000 < window.fromMs || clock / 1000 > window.toMs)) return;
    total += dt;
    const n = nodes.get(id);
    const f = n.callFrame;
    const key = `${f.functionName || '(anonymous)'}\u0000${where(f.url)}\u0000${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    // Inclusive time: every distinct frame on the sample's stack.
    const seen = new Set();
    for (let cur = parent.get(id); cur !== undefined; cur = parent.get(cur)) {
      const cf = nodes.get(cur).callFrame;
      if (!cf.functionName || cf.functionName === '(root)') continue;
      const k = `${cf.functionName}\u0000${where(cf.url)}\u0000${cf.url.split('/').pop()}:${cf.lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
    const pkg = f.url ? where(f.url) : f.functionName || '(native)';
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + dt);
  });
  const pct = (v) => Number(((100 * v) / total).toFixed(1));

  return {
    totalMs: Math.round(total / 1000),
    top: [...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, v]) => {
        const [name, pkg, at] = key.split('\u0000');
        return { selfPct: pct(v), name, where: `${pkg} ${at}` };
      }),
    inclusive: [...inclusive.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, v]) => {
        const [name, pkg, at] = key.split('\u0000');
        return { pct: pct(v), name, where: `${pkg} ${at}` };
      }),
    byPackage: [...byPackage.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([pkg, v]) => ({ selfPct: pct(v), package: pkg })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const summary = await summarizeProfile(process.argv[2], Number(process.argv[3] ?? 25));
  console.log(`total ${summary.totalMs} ms sampled`);
  for (const f of summary.top) console.log(`${String(f.selfPct).padStart(5)}%  ${f.name}  ${f.where}`);
  console.log('\nby package:');
  for (const p of summary.byPackage) console.log(`${String(p.selfPct).padStart(5)}%  ${p.package}`);
}
