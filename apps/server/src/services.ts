import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ActionDeps } from '@token-actions/core';
import type { Logger } from './logger.js';
import type { InterfaceBServices } from './routes/b/index.js';

/** What the HTTP app needs, built by a composition root (compose.ts, or a test). */
export interface AppServices {
  readonly deps: ActionDeps;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
  /** Airdrops exist only on the localnet. */
  readonly isLocalnet: boolean;
  /** OAuth server and interface B; absent in apps that serve interface A only. */
  readonly interfaceB?: InterfaceBServices;
  /** Mounts further routers on the root app. */
  readonly mount?: (app: OpenAPIHono) => void;
}
