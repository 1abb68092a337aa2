/** The soak's command line: flags, or the SOAK_* variables that stand in for them. */
const args = process.argv.slice(2);
export const option = (name: string, env?: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  if (i >= 0 && args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) return args[i + 1];
  return env ? process.env[env] : undefined;
};
export const flag = (name: string) => args.includes(`--${name}`);

function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`bad duration "${text}" (use e.g. 300, 90s, 5m)`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[m[2] ?? 's'];
  return Number(m[1]) * unit!;
}

export const DURATION_MS = parseDuration(option('duration', 'SOAK_DURATION') ?? '5m');
export const RATE = Number(option('rate', 'SOAK_RATE') ?? 40);
export const SETTLE_MS = parseDuration(option('settle') ?? '90s');
export const log = (line: string) =>
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
