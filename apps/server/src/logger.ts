import { type DestinationStream, type Logger, pino } from 'pino';

/** Every path that can carry a secret is censored before a log line is written. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'apiKey',
  'secret',
  'secretKey',
  'clientSecret',
  'client_secret',
  'masterKey',
  'access_token',
  'refresh_token',
  'code',
  'preview',
  '*.apiKey',
  '*.secret',
  '*.secretKey',
  '*.clientSecret',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: undefined }, destination);
}

export type { Logger };
