import type { Harness } from '../support/harness.js';

export interface Answer {
  readonly status: number;
  readonly json: any;
  readonly text: string;
  readonly headers: Headers;
}

/** A request with any bearer token (or none), against any server. */
export async function request(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined
      ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
      : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** The admin API of a harness, with its operator token. */
export function adminOf(h: Pick<Harness, 'server' | 'baseUrl'>) {
  const token = h.server.credentials.adminToken;
  if (!token) throw new Error('the harness has no admin token');
  return {
    token,
    call: (method: string, path: string, body?: unknown) =>
      request(h.baseUrl, method, path, { token, ...(body !== undefined ? { body } : {}) }),
    async createKey(label: string, tenant?: string) {
      const res = await request(h.baseUrl, 'POST', '/v1/admin/api-keys', {
        token,
        body: { label, ...(tenant ? { tenant } : {}) },
      });
      if (res.status !== 201) throw new Error(`could not create a key: ${res.status} ${res.text}`);
      return res.json as { id: string; apiKey: string; label: string; tenant: string; createdAt: string };
    },
  };
}

/** Interface A as one API key. */
export function asKey(baseUrl: string, apiKey: string) {
  return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(baseUrl, method, path, {
      token: apiKey,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body !== undefined ? { body } : {}),
    });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
