/** The logging the composition and the loops need; pino's Logger satisfies it. */
export interface RuntimeLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
