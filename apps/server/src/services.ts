import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ActionDeps } from '@token-actions/core';
import type { Logger } from './logger.js';

/** What the HTTP app needs, built by a composition root (compose.ts, or a test). */
export interface AppServices {
  readonly deps: ActionDeps;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
  /** Airdrops exist only on the localnet. */
  readonly isLocalnet: boolean;
  /** Mounts further routers (OAuth, interface B) on the root app. */
  readonly mount?: (app: OpenAPIHono) => void;
}
