import { RequestError } from '@hono/node-server';
import type { Logger } from '../logger.js';

/**
 * Errors the Node adapter meets outside the app. A request it cannot turn into a URL (a Host of
 * "a@b", a backslash target) never reaches the app and still gets the documented JSON error
 * (`{message, code}`, as interface A and the public routes answer). The
 * adapter also lands here when the app's fetch itself rejects (its own error handler failing):
 * that is the server's fault, so it is logged and answered 500, never blamed on the request.
 */
export function belowAppErrorHandler(logger: Pick<Logger, 'error'>) {
  return (error: unknown): Response => {
    if (error instanceof RequestError) {
      return Response.json(
        {
          message: 'invalid request: the request target or Host header cannot be parsed',
          code: 'INVALID_INPUT',
        },
        { status: 400, headers: { connection: 'close' } },
      );
    }
    logger.error({ err: error }, 'unhandled error below the app');
    return Response.json({ message: 'internal error', code: 'INTERNAL' }, { status: 500 });
  };
}
