import { type DestinationStream, type Logger as PinoLogger, pino } from 'pino';
import { REDACT_PATHS } from './redact-paths.js';

export { REDACT_PATHS };

/** What the app logs through: pino on Node, a console-JSON logger on the edge (edge/logger.ts). */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A line written while serving a request carries its `requestId` through `requestLogger` (http/request-context.ts). */
export function createLogger(level: string, destination?: DestinationStream): PinoLogger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: undefined,
    },
    destination,
  );
}
