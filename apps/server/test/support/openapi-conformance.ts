/**
 * Checks real answers against the service's own OpenAPI document: every request a test sends
 * through `fetch` is recorded, matched to its operation, and its answer checked: the status is
 * declared for that operation, and a JSON body validates against the declared schema (JSON
 * Schema 2020-12, as OpenAPI 3.1 uses it).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked as plain JSON.
type Json = any;

/** Records every fetch to `baseUrl` while installed; `stop` puts the real fetch back. */
export function recordFetch(baseUrl: string) {
  const realFetch = globalThis.fetch;
  const exchanges: Exchange[] = [];
  globalThis.fetch = async (input, init) => {
    // Read without building a Request, which would take over a streamed body.
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const response = await realFetch(input, init);
    if (url.startsWith(baseUrl)) {
      const copy = response.clone();
      exchanges.push({
        method,
        path: new URL(url).pathname,
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        body: await copy.text(),
      });
    }
    return response;
  };
  return {
    exchanges,
    stop: () => {
      globalThis.fetch = realFetch;
    },
  };
}

interface Operation {
  readonly id: string;
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  readonly responses: Record<string, Json>;
}

export function operationsOf(doc: Json): Operation[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([template, item]) =>
    Object.entries(item as Record<string, Json>)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        id: op.operationId,
        method: method.toUpperCase(),
        template,
        // Literal segments beat parameters: /escrows/{id} must not swallow a literal route.
        pattern: new RegExp(
          `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
        ),
        responses: op.responses ?? {},
      })),
  );
}

export function createConformanceChecker(doc: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const compiled = new Map<Json, ValidateFunction>();
  const validatorOf = (schema: Json) => {
    let validate = compiled.get(schema);
    if (!validate) {
      // Component references resolve against the document's own components.
      validate = ajv.compile({ ...schema, components: doc.components });
      compiled.set(schema, validate);
    }
    return validate;
  };
  const operations = operationsOf(doc);
  const literalCount = (t: string) => t.split('/').filter((s) => !s.startsWith('{')).length;

  function operationFor(method: string, path: string): Operation | undefined {
    return operations
      .filter((op) => op.method === (method === 'HEAD' ? 'GET' : method) && op.pattern.test(path))
      .sort((a, b) => literalCount(b.template) - literalCount(a.template))[0];
  }

  /** The problems with one exchange; empty when it conforms. */
  function check(exchange: Exchange): string[] {
    const where = `${exchange.method} ${exchange.path} -> ${exchange.status}`;
    const op = operationFor(exchange.method, exchange.path);
    if (!op) return [`${where}: no operation in the document`];
    const declared = op.responses[String(exchange.status)] ?? op.responses.default;
    if (!declared) return [`${where}: status not declared for ${op.id}`];
    const media = declared.content as Record<string, Json> | undefined;
    if (!media || exchange.method === 'HEAD' || exchange.body === '') {
      return media && exchange.body === '' && exchange.method !== 'HEAD'
        ? [`${where}: declared a body, got none`]
        : [];
    }
    const type = exchange.contentType.split(';')[0]!.trim().toLowerCase();
    const entry = media[type];
    if (!entry) return [`${where}: content-type ${type} not declared (${Object.keys(media).join(', ')})`];
    if (type !== 'application/json' || !entry.schema) return [];
    const validate = validatorOf(entry.schema);
    if (validate(JSON.parse(exchange.body))) return [];
    return (validate.errors ?? []).map(
      (e) => `${where}: body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }

  /** A JSON value against a schema the document declares (a webhook payload, say). */
  function validateAgainst(schema: Json, value: unknown): string[] {
    const validate = validatorOf(schema);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  }

  return { check, operationFor, validateAgainst };
}
