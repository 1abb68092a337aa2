import type { Context, ErrorHandler } from 'hono';

// The claim is read by the root app's handler, whatever the Env of the sub-app that made it.
declare module 'hono' {
  interface ContextVariableMap {
    /** The error pipeline of the sub-app serving the request, when it claimed one. */
    errorPipeline?: ErrorHandler;
  }
}

/**
 * A mounted sub-app's error pipeline without Hono's per-handler wrapping. A sub-app with its own
 * `onError` gets every one of its handlers wrapped in a compose of their own when it is mounted: a
 * closure and promises per handler per request. Instead the sub-app claims the requests it serves
 * in its first middleware, and the root's single error handler hands each error to the pipeline
 * that claimed the request (`claimedErrors`), or to its own when none did.
 */
export function claimErrors(c: Context, pipeline: ErrorHandler): void {
  c.set('errorPipeline', pipeline);
}

/** The root's error handler: the claiming sub-app's pipeline, else `fallback`. */
export function claimedErrors(fallback: ErrorHandler): ErrorHandler {
  return (error, c) => (c.get('errorPipeline') ?? fallback)(error, c);
}
