import { OpenAPIHono } from '@hono/zod-openapi';
import { rejectDuplicateJsonKeys } from '../http/json-duplicates.js';
import type { InterfaceBGuard } from './guard.js';
import {
  type ErrorLogger,
  type InterfaceBEnv,
  interfaceBErrorHandler,
  interfaceBHook,
  notFoundB,
} from './render.js';

/** The prefixes of interface B; interface A shares `/v1` and must stay outside the guard. */
export const INTERFACE_B_PREFIXES = ['/v1/project', '/v1/aggregator', '/v1/swap', '/v1/webhooks'] as const;

export type InterfaceBApp = OpenAPIHono<InterfaceBEnv>;

export interface InterfaceBAppOptions {
  readonly guard: InterfaceBGuard;
  readonly logger: ErrorLogger;
  /** Default: INTERFACE_B_PREFIXES. */
  readonly prefixes?: readonly string[];
}

/**
 * Interface B as a sub-app with its one error pipeline: the guard in front of every path under its
 * prefixes, one validation hook, one error handler and a 404 of its own, all rendered by `errorB`.
 * `register` adds the routes; the 404 is added after them so it only answers what they do not.
 */
export function createInterfaceBApp(
  options: InterfaceBAppOptions,
  register: (app: InterfaceBApp) => void,
): InterfaceBApp {
  const prefixes = options.prefixes ?? INTERFACE_B_PREFIXES;
  const app: InterfaceBApp = new OpenAPIHono<InterfaceBEnv>({ defaultHook: interfaceBHook });
  app.onError(interfaceBErrorHandler(options.logger));
  // `/prefix/*` also matches the bare prefix, so the guard counts each request once.
  for (const prefix of prefixes) app.use(`${prefix}/*`, options.guard.rateLimit);
  for (const prefix of prefixes) app.use(`${prefix}/*`, rejectDuplicateJsonKeys);
  register(app);
  for (const prefix of prefixes) app.all(`${prefix}/*`, notFoundB);
  return app;
}
