import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from './heap.js';

describe('boundHeapGrowth', () => {
  it("keeps an operator's own --heap-growing-percent", () => {
    expect(boundHeapGrowth(['--heap-growing-percent=200'])).toBe(false);
    expect(boundHeapGrowth(['--heap_growing_percent', '200'])).toBe(false);
  });

  it('sets the bound otherwise', () => {
    expect(boundHeapGrowth(['--enable-source-maps'])).toBe(true);
  });

  it('keeps the heap nearer its live size under a stream of garbage (the bound, in a child)', () => {
    // 40 MiB stays live while 1.5 GiB of short-lived arrays pass through a small window that
    // survives young collections: the old generation fills with garbage between full collections.
    const script = `
      const v8 = require('node:v8');
      if (process.argv[1] === 'bound') v8.setFlagsFromString('--heap-growing-percent=${HEAP_GROWING_PERCENT}');
      const live = Array.from({ length: 40 }, () => new Array(128 * 1024).fill(1.5));
      const window = [];
      let peak = 0;
      for (let i = 0; i < 12000; i++) {
        window.push(new Array(16 * 1024).fill(i + 0.5));
        if (window.length > 400) window.shift();
        if (i % 50 === 0) peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
      }
      process.stdout.write(String(Math.round(peak / 2 ** 20) + live.length * 0));
    `;
    const peakMiB = (mode: string) =>
      Number(spawnSync(process.execPath, ['-e', script, mode], { encoding: 'utf8' }).stdout);
    const unbounded = peakMiB('default');
    const bounded = peakMiB('bound');
    // About 90 MiB is live at any time; V8's own choice ran to 480-520 MiB here, the bound to 250.
    expect(bounded).toBeGreaterThan(80);
    expect(bounded).toBeLessThan(unbounded * 0.75);
  });
});
