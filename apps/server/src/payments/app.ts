import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { matchedRoutes } from 'hono/route';
import { apiKeyAuth } from '../http/auth.js';
import { forBodies, limitBody } from '../http/body-limit.js';
import { idempotency } from '../http/idempotency.js';
import { rejectDuplicateJsonKeys } from '../http/json-duplicates.js';
import type { AppServices } from '../services.js';
import { registerAirdrop } from './accounts/airdrop.js';
import { registerCreateAccount } from './accounts/create.js';
import { registerGetAccount } from './accounts/get.js';
import { registerCharityDonate } from './charity-donate.js';
import { registerDonations } from './donate.js';
import { registerGetEscrow } from './escrows/get.js';
import { registerRefundEscrow } from './escrows/refund.js';
import { registerReleaseEscrow } from './escrows/release.js';
import { registerMerchantPay } from './merchant-pay.js';
import { registerMint } from './mint.js';
import { registerGetNft } from './nft.js';
import { registerPreview } from './preview.js';
import { errorA, type PaymentsApp, type PaymentsEnv, paymentsHook } from './render.js';
import { registerSign } from './sign.js';
import { registerTrack } from './track.js';
import { registerCreateWebhookEndpoint } from './webhook-endpoints/create.js';
import { registerDeleteWebhookEndpoint } from './webhook-endpoints/delete.js';
import { registerTransactionEvents } from './webhook-endpoints/events.js';
import { registerGetWebhookEndpoint } from './webhook-endpoints/get.js';
import { registerListWebhookEndpoints } from './webhook-endpoints/list.js';

/**
 * Payments (the spec's interface A, `/v1/api/...`) as a sub-app with its one error pipeline: one
 * validation hook here, and the root app's error handler (createApp's `paymentsErrorHandler`),
 * both rendering `{message, code}` through `errorA`, behind the body limit, API key, content type and
 * Idempotency-Key checks. The sub-app sets no `onError` of its own: Hono wraps every handler of a
 * mounted sub-app that has one in a compose of its own, a closure and promises per handler per
 * request, to give the same answer the root's handler gives.
 */
export function createPaymentsApp(services: AppServices): PaymentsApp {
  const { deps } = services;
  const now = () => deps.clock.now();
  const app: PaymentsApp = new OpenAPIHono<PaymentsEnv>({ defaultHook: paymentsHook });

  app.use(
    '/v1/api/*',
    limitBody({
      maxSize: services.maxBodyBytes,
      // The rest of an oversized body is never read, so the connection cannot carry another request.
      onError: (c) =>
        errorA(c, 413, 'INVALID_INPUT', `request body exceeds ${services.maxBodyBytes} bytes`, {
          connection: 'close',
        }),
    }),
  );
  app.use('/v1/api/*', apiKeyAuth(deps.store, now, errorA));
  // Filled from the route declarations once they are registered below.
  const acceptsAnyBody = new Set<string>();
  // The checks of a request's body, as one step that a read passes at once.
  app.use(
    '/v1/api/*',
    forBodies(
      every(
        requireJsonBody(acceptsAnyBody),
        rejectDuplicateJsonKeys,
        idempotency(deps.store.idempotency, now, errorA),
      ),
    ),
  );

  registerMint(app, deps);
  registerDonations(app, deps);
  registerCharityDonate(app, deps);
  registerMerchantPay(app, deps);
  registerPreview(app, deps);
  registerSign(app, deps);
  registerTrack(app, deps);
  registerCreateAccount(app, deps);
  registerGetAccount(app, deps);
  registerAirdrop(app, deps, services.isLocalnet);
  registerGetNft(app, deps);
  registerGetEscrow(app, deps);
  registerReleaseEscrow(app, deps);
  registerRefundEscrow(app, deps);
  const webhooks = services.webhookEndpoints;
  if (webhooks) {
    registerCreateWebhookEndpoint(app, webhooks, services);
    registerListWebhookEndpoints(app, webhooks, services);
    registerGetWebhookEndpoint(app, webhooks, services);
    registerDeleteWebhookEndpoint(app, webhooks, services);
    registerTransactionEvents(app.openAPIRegistry);
  }
  for (const path of postsWithoutRequiredBody(app)) acceptsAnyBody.add(path);

  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Interface A API key (printed at start-up and written to $DATA_DIR/dev-credentials.json)',
  });
  return app;
}

/**
 * The POST routes whose declaration takes no body or an optional one (escrow release and refund,
 * account creation), as the router names them (`/v1/api/escrows/:id/release`).
 */
function postsWithoutRequiredBody(app: PaymentsApp): string[] {
  return app.openAPIRegistry.definitions.flatMap((definition) =>
    definition.type === 'route' &&
    definition.route.method === 'post' &&
    definition.route.request?.body?.required !== true
      ? [definition.route.path.replaceAll(/\/{(.+?)}/g, '/:$1')]
      : [],
  );
}

/**
 * Every POST carries JSON (415 otherwise), except the ones whose declaration takes no required
 * body: those accept any Content-Type. Which route a request is for is the router's match.
 */
function requireJsonBody(acceptsAnyBody: ReadonlySet<string>): MiddlewareHandler<PaymentsEnv> {
  return async (c, next) => {
    if (c.req.method === 'POST' && !/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
      const route = matchedRoutes(c).find((matched) => matched.method === 'POST')?.path;
      if (route === undefined || !acceptsAnyBody.has(route)) {
        return errorA(c, 415, 'INVALID_INPUT', 'Content-Type must be application/json');
      }
    }
    await next();
  };
}
