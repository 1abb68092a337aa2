import type { Context } from 'hono';

type Write = (fields: object, message?: string) => void;
const LEVELS = ['info', 'warn', 'error'] as const;

/**
 * The logger of the request `c` is serving: every line it writes carries the request's id. It is
 * handed to whatever logs while a request is served (handlers, error handlers, the OAuth protocol
 * functions' deps) instead of being found through an AsyncLocalStorage: on Node 20 an
 * AsyncLocalStorage in use installs promise hooks that every promise of every request pays for.
 * Outside the request-id middleware the logger is returned as it is.
 */
export function requestLogger<L extends object>(c: Context, logger: L): L {
  const requestId = c.get('requestId');
  if (typeof requestId !== 'string') return logger;
  // Everything else (a pino logger's level, child, ...) is the logger's own, through the prototype.
  const scoped = Object.create(logger) as Partial<Record<(typeof LEVELS)[number], Write>>;
  for (const level of LEVELS) {
    const write = (logger as Partial<Record<string, Write>>)[level];
    if (write) scoped[level] = (fields, message) => write.call(logger, { requestId, ...fields }, message);
  }
  return scoped as L;
}
