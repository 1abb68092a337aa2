import { RequestError } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { belowAppErrorHandler } from './below-app.js';

function recordingLogger() {
  const lines: { obj: object; msg?: string }[] = [];
  return { lines, error: (obj: object, msg?: string) => lines.push({ obj, ...(msg ? { msg } : {}) }) };
}

describe('belowAppErrorHandler', () => {
  it('answers an unparseable request 400 with the JSON error and closes the connection', async () => {
    const logger = recordingLogger();
    const res = belowAppErrorHandler(logger)(new RequestError('Invalid URL'));
    expect(res.status).toBe(400);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({
      message: 'invalid request: the request target or Host header cannot be parsed',
      code: 'INVALID_INPUT',
    });
    expect(logger.lines).toEqual([]);
  });

  it('answers any other failure 500 without its message, and logs it', async () => {
    const logger = recordingLogger();
    const res = belowAppErrorHandler(logger)(new Error('db password=hunter2 refused'));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ message: 'internal error', code: 'INTERNAL' });
    expect(text).not.toContain('hunter2');
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]?.msg).toBe('unhandled error below the app');
  });
});
