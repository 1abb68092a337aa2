import type { Logger } from '../logger.js';
import { REDACT_PATHS } from '../redact-paths.js';

// pino does not run on workerd (its Node build needs process.hrtime.bigint; its browser build
// ignores `redact`). A line is a console.log of JSON, which Workers Logs ingests; the keys pino
// censors on Node are censored here at any depth.
const REDACT_KEYS = new Set(REDACT_PATHS.map((path) => path.split('.').at(-1)!));
const LEVELS = { debug: 20, info: 30, warn: 40, error: 50 } as const;
type Level = keyof typeof LEVELS;

function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[truncated]';
  if (value instanceof Error) return { type: value.name, message: value.message };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      REDACT_KEYS.has(key) ? '[redacted]' : redact(item, depth + 1),
    ]),
  );
}

export function createEdgeLogger(level: string, write: (line: string) => void = console.log): Logger {
  const min = level === 'silent' ? Number.POSITIVE_INFINITY : (LEVELS[level as Level] ?? LEVELS.info);
  const at = (name: Level) => (obj: object, msg?: string) => {
    if (LEVELS[name] < min) return;
    write(JSON.stringify({ level: LEVELS[name], time: Date.now(), ...(redact(obj) as object), msg }));
  };
  return { info: at('info'), warn: at('warn'), error: at('error') };
}
