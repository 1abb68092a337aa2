import fc from 'fast-check';
import {
  anyJson,
  anyMethod,
  type BodySpec,
  badAuthorization,
  bodyOfSize,
  CONTENT_TYPES_OK,
  contentTypeAny,
  contentTypeNotJson,
  deepJson,
  encodeBody,
  extraHeaders,
  hostileString,
  idempotencyKeyInvalid,
  idempotencyKeyValid,
  malformedJson,
  pathMutation,
  pathSegment,
  RawJson,
  randomBytesBody,
  withField,
} from './arbitraries.js';
import { describeRequest } from './checks.js';
import type { FuzzContext } from './context.js';
import type { FuzzRequest } from './http.js';
import { buildPath, type RouteSpec } from './routes.js';

/** A generated request, the route it was built from, and whether the service must refuse it. */
export interface Generated {
  readonly route: RouteSpec;
  readonly req: FuzzRequest;
  /** What was done to the request (shown in counterexamples). */
  readonly note: string;
  readonly mustRefuse: boolean;
}

/** The parts of a request before it is written; defects edit these. */
interface Parts {
  method: string;
  params: Record<string, string>;
  /** Path parameters already written (encoded) by a defect. */
  encoded: Record<string, string>;
  pathRewrite?: (path: string) => string;
  body: BodySpec;
  headers: Record<string, string | undefined>;
  chunked: boolean;
}

const OMIT = Symbol('omit');

function toRequest(route: RouteSpec, p: Parts): FuzzRequest {
  const segments: Record<string, string> = {};
  for (const [name, value] of Object.entries(p.params))
    segments[name] = p.encoded[name] ?? encodeURIComponentSafe(value);
  let path = buildPath(route.template, segments);
  if (p.pathRewrite) path = p.pathRewrite(path);
  // Node refuses header sections over 16 KiB (431, before the app): the protocol suite covers that.
  if (path.length > 4_000) path = path.slice(0, 4_000);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(p.headers))
    if (value !== undefined && value !== null) headers[name] = value;
  const body = encodeBody(p.body);
  return {
    method: p.method,
    path,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(p.chunked && body !== undefined ? { chunked: true } : {}),
  };
}

function encodeURIComponentSafe(value: string): string {
  return Buffer.from(value, 'utf8')
    .toString('latin1')
    .replace(/[^A-Za-z0-9\-._~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The route's own request with every part valid. */
function validParts(ctx: FuzzContext, route: RouteSpec): fc.Arbitrary<Parts> {
  const params = fc.record(
    Object.fromEntries(Object.entries(route.params).map(([n, s]) => [n, s.valid])) as Record<
      string,
      fc.Arbitrary<string>
    >,
  );
  const body: fc.Arbitrary<BodySpec> = route.body
    ? fc
        .record(
          Object.fromEntries(
            Object.entries(route.body.fields).map(([name, f]) => [
              name,
              f.required ? f.valid : fc.oneof(fc.constant(OMIT), f.valid),
            ]),
          ),
        )
        .map(
          (fields): BodySpec => ({
            kind: 'json',
            value: Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== OMIT)),
          }),
        )
    : fc.constant({ kind: 'none' });
  const signBody = fc.nat().map((i): BodySpec => {
    const p = ctx.previews[i % ctx.previews.length]!;
    return { kind: 'json', value: { ...p.request, preview: p.preview } };
  });
  return fc.record({
    method: fc.constant(route.method),
    params,
    encoded: fc.constant({}),
    body: route.id === 'transaction-sign' ? signBody : body,
    headers: fc.record({
      authorization: fc.constant(route.requiresAuth ? `Bearer ${ctx.apiKey}` : undefined),
      'content-type': route.body ? fc.constantFrom(...CONTENT_TYPES_OK) : fc.constant(undefined),
    }) as fc.Arbitrary<Record<string, string | undefined>>,
    chunked: fc.constant(false),
  });
}

type Defect = { readonly name: string; readonly apply: (p: Parts) => Parts };
const defect = (name: string, apply: (p: Parts) => Parts): Defect => ({ name, apply });

/**
 * Defects that make the route refuse the request whatever the rest holds. Only those that apply
 * to the route are offered (a wrong content type is no defect on a route that takes no body).
 */
function defectsFor(ctx: FuzzContext, route: RouteSpec): fc.Arbitrary<Defect> {
  const options: fc.Arbitrary<Defect>[] = [];
  const fields = route.body ? Object.entries(route.body.fields) : [];
  const hasBodyRules = fields.length > 0;
  const jsonBody = (p: Parts): Record<string, unknown> =>
    p.body.kind === 'json' && typeof p.body.value === 'object' && p.body.value !== null
      ? (p.body.value as Record<string, unknown>)
      : {};

  if (hasBodyRules) {
    options.push(
      fc.constantFrom(...fields).chain(([name, spec]) =>
        spec.invalid.map((v) =>
          defect(`${name}=${short(v)}`, (p) => ({
            ...p,
            body: { kind: 'json', value: withField(jsonBody(p), name, v) },
          })),
        ),
      ),
    );
    const required = fields.filter(([, f]) => f.required).map(([n]) => n);
    if (required.length > 0) {
      options.push(
        fc.constantFrom(...required).map((name) =>
          defect(`missing ${name}`, (p) => {
            const { [name]: _, ...rest } = jsonBody(p);
            return { ...p, body: { kind: 'json', value: rest } };
          }),
        ),
      );
    }
    options.push(
      fc
        .tuple(fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,11}$/), anyJson)
        .filter(([name]) => !route.body!.fields[name] && name !== 'preview')
        .map(([name, v]) =>
          defect(`unknown field ${name}`, (p) => ({
            ...p,
            body: { kind: 'json', value: withField(jsonBody(p), name, v) },
          })),
        ),
      fc
        .constantFrom<unknown>([], [{}], 'body', 42, true, ...(route.body?.optionalBody ? [] : [null]))
        .map((v) => defect(`body ${short(v)}`, (p) => ({ ...p, body: { kind: 'json', value: v } }))),
      fc
        .oneof(
          fc.constantFrom(
            '{',
            '{"account":',
            '{"amount":"1",}',
            "{'amount':'1'}",
            '{amount:"1"}',
            '{"a":"1"}{"b":"2"}',
            '{"amount":NaN}',
            '{"amount":01}',
            '\u0000',
            '{"a":"\\x41"}',
          ),
          fc.json().map((j) => `${j}}`),
        )
        .map((text) =>
          defect(`malformed ${short(text)}`, (p) => ({
            ...p,
            body: { kind: 'raw', text, label: 'malformed' },
          })),
        ),
    );
    if (!route.body!.optionalBody) {
      options.push(
        contentTypeNotJson.map((t) =>
          defect(`content-type ${short(t)}`, (p) => ({ ...p, headers: { ...p.headers, 'content-type': t } })),
        ),
      );
      options.push(
        fc.constant(
          defect('no content-type', (p) => ({ ...p, headers: { ...p.headers, 'content-type': undefined } })),
        ),
      );
    }
  }
  if (route.refusedBodies) {
    options.push(
      route.refusedBodies.map((b) =>
        defect(`refused body ${short(b)}`, (p) => ({ ...p, body: { kind: 'json', value: b } })),
      ),
    );
  }
  options.push(
    fc
      .tuple(
        bodyOfSize(ctx.maxBodyBytes).filter(
          (b) => b.kind === 'raw' && Buffer.byteLength(b.text) > ctx.maxBodyBytes,
        ),
        fc.boolean(),
      )
      .map(([b, chunked]) =>
        defect(`oversized ${b.kind === 'raw' ? b.label : ''}${chunked ? ' chunked' : ''}`, (p) => ({
          ...p,
          body: b,
          chunked,
        })),
      ),
  );
  if (route.requiresAuth) {
    options.push(
      badAuthorization(ctx.apiKey).map((a) =>
        defect(`authorization ${short(a)}`, (p) => ({ ...p, headers: { ...p.headers, authorization: a } })),
      ),
    );
  }
  if (route.method === 'POST' && route.iface === 'A') {
    options.push(
      idempotencyKeyInvalid.map((key) =>
        defect(`idempotency-key ${short(key)}`, (p) => ({
          ...p,
          headers: { ...p.headers, 'idempotency-key': key },
        })),
      ),
    );
  }
  options.push(
    fc.constantFrom('PUT', 'PATCH', 'DELETE').map((m) => defect(`method ${m}`, (p) => ({ ...p, method: m }))),
  );
  options.push(
    fc
      .constantFrom<[string, (s: string) => string]>(
        ['suffix', (s) => `${s}/extra`],
        ['v2', (s) => s.replace(/^\/v1/, '/v2')],
        ['upper', (s) => s.toUpperCase()],
      )
      .map(([name, rewrite]) => defect(`path ${name}`, (p) => ({ ...p, pathRewrite: rewrite }))),
  );
  for (const [name, spec] of Object.entries(route.params)) {
    options.push(
      pathSegment(spec.invalid).map((seg) =>
        defect(`${name}=${short(seg)}`, (p) => ({ ...p, encoded: { ...p.encoded, [name]: seg } })),
      ),
    );
  }
  return fc.oneof(...options);
}

/** Requests the route must refuse: a valid request with one or two defects. */
export function refusedRequest(ctx: FuzzContext, routes: readonly RouteSpec[]): fc.Arbitrary<Generated> {
  // Built once per route: building arbitraries inside `chain` costs more than sending the request.
  return fc.oneof(
    ...routes.map((route) =>
      fc
        .tuple(validParts(ctx, route), fc.array(defectsFor(ctx, route), { minLength: 1, maxLength: 2 }))
        .map(([base, defects]) => {
          const parts = defects.reduce((p, d) => d.apply(p), base);
          return generated(route, toRequest(route, parts), defects.map((d) => d.name).join(' + '), true);
        }),
    ),
  );
}

/** Any request near a route: valid, half valid, or hostile in every part. */
export function anyRequest(ctx: FuzzContext, routes: readonly RouteSpec[]): fc.Arbitrary<Generated> {
  const badAuth = badAuthorization(ctx.apiKey);
  return fc.oneof(...routes.map((route) => anyRequestFor(ctx, route, badAuth)));
}

function anyRequestFor(
  ctx: FuzzContext,
  route: RouteSpec,
  badAuth: fc.Arbitrary<string | undefined>,
): fc.Arbitrary<Generated> {
  const fields = route.body ? Object.entries(route.body.fields) : [];
  const fieldValue = (required: boolean, valid: fc.Arbitrary<unknown>, invalid: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { weight: required ? 1 : 6, arbitrary: fc.constant(OMIT) },
      { weight: 14, arbitrary: valid },
      { weight: 4, arbitrary: invalid },
      { weight: 1, arbitrary: fc.oneof(anyJson, hostileString, deepJson) },
    );
  const fieldsBody: fc.Arbitrary<BodySpec> = fc
    .tuple(
      fc.record(Object.fromEntries(fields.map(([n, f]) => [n, fieldValue(f.required, f.valid, f.invalid)]))),
      fc.option(
        fc.dictionary(
          fc.oneof(
            fc.string({ maxLength: 12 }),
            fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString'),
          ),
          fc.oneof(anyJson, deepJson),
          { minKeys: 1, maxKeys: 3 },
        ),
        { freq: 8 },
      ),
    )
    .map(([f, extra]) => {
      let value: Record<string, unknown> = Object.fromEntries(
        Object.entries(f).filter(([, v]) => v !== OMIT),
      );
      for (const [k, v] of Object.entries(extra ?? {})) value = withField(value, k, v);
      return { kind: 'json', value };
    });
  const sign = fc.nat().map((i): BodySpec => {
    const p = ctx.previews[i % ctx.previews.length]!;
    return { kind: 'json', value: { ...p.request, preview: p.preview } };
  });
  const bodyArb: fc.Arbitrary<BodySpec> = route.body
    ? fc.oneof(
        { weight: 60, arbitrary: fieldsBody },
        { weight: route.id === 'transaction-sign' ? 8 : 0, arbitrary: sign },
        {
          weight: 6,
          arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value): BodySpec => ({ kind: 'json', value })),
        },
        { weight: 6, arbitrary: malformedJson },
        {
          weight: 2,
          arbitrary: deepJson.map(
            (d): BodySpec => ({ kind: 'json', value: fields.length ? { [fields[0]![0]]: d } : d }),
          ),
        },
        {
          weight: 2,
          arbitrary: deepJson.map((d): BodySpec => ({ kind: 'raw', text: d.text, label: 'deep' })),
        },
        { weight: 3, arbitrary: bodyOfSize(ctx.maxBodyBytes) },
        { weight: 2, arbitrary: randomBytesBody },
        { weight: 3, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) },
      )
    : fc.oneof(
        { weight: 18, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) },
        {
          weight: 1,
          arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value): BodySpec => ({ kind: 'json', value })),
        },
        { weight: 1, arbitrary: fc.oneof(malformedJson, bodyOfSize(ctx.maxBodyBytes), randomBytesBody) },
      );
  const params = fc.record(
    Object.fromEntries(
      Object.entries(route.params).map(([n, s]) => [
        n,
        pathSegment(
          fc.oneof(
            { weight: 7, arbitrary: s.valid },
            { weight: 2, arbitrary: s.invalid },
            { weight: 1, arbitrary: hostileString },
          ),
        ),
      ]),
    ) as Record<string, fc.Arbitrary<string>>,
  );
  return fc
    .record({
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: anyMethod },
      ),
      encoded: params,
      rewrite: fc.option(pathMutation, { freq: 10 }),
      body: bodyArb,
      chunked: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      authorization: fc.oneof(
        { weight: 19, arbitrary: fc.constant<string | undefined>(`Bearer ${ctx.apiKey}`) },
        { weight: 1, arbitrary: badAuth },
      ),
      contentType: route.body
        ? fc.oneof(
            { weight: 17, arbitrary: fc.constantFrom<string | undefined>(...CONTENT_TYPES_OK) },
            { weight: 3, arbitrary: fc.option(contentTypeAny, { nil: undefined }) },
          )
        : fc.oneof(
            { weight: 9, arbitrary: fc.constant<string | undefined>(undefined) },
            { weight: 1, arbitrary: contentTypeAny },
          ),
      idempotencyKey: fc.option(
        fc.oneof(
          { weight: 4, arbitrary: idempotencyKeyValid },
          { weight: 1, arbitrary: idempotencyKeyInvalid },
        ),
        { freq: 6 },
      ),
      extra: fc.option(extraHeaders, { freq: 3 }),
    })
    .map((g): Generated => {
      const parts: Parts = {
        method: g.method,
        params: Object.fromEntries(Object.keys(g.encoded).map((n) => [n, ''])),
        encoded: g.encoded,
        ...(g.rewrite ? { pathRewrite: g.rewrite } : {}),
        body: g.body,
        headers: {
          ...(g.extra ?? {}),
          authorization: g.authorization,
          'content-type': g.contentType,
          ...(g.idempotencyKey !== null ? { 'idempotency-key': g.idempotencyKey } : {}),
        },
        chunked: g.chunked,
      };
      return generated(route, toRequest(route, parts), 'any', false);
    });
}

/** fast-check prints counterexamples with this instead of the whole route table. */
function generated(route: RouteSpec, req: FuzzRequest, note: string, mustRefuse: boolean): Generated {
  const g = { req, note, mustRefuse } as Generated;
  // Not enumerable: test reporters would print the whole route table (its arbitraries) otherwise.
  Object.defineProperty(g, 'route', { value: route, enumerable: false });
  Object.defineProperty(g, fc.toStringMethod, {
    value: () => `${route.id} [${note}] ${describeRequest(req)}`,
    enumerable: false,
  });
  return g;
}

export function short(value: unknown): string {
  let text: string;
  if (value instanceof RawJson) text = `raw(${value.text.length})`;
  else if (typeof value === 'string') text = JSON.stringify(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > 60 ? `${text.slice(0, 57)}...(${text.length})` : text;
}
