import { encodeBase58 } from '@token-actions/core';
import fc from 'fast-check';

/**
 * Hostile-input building blocks shared by every route of the fuzz table. Values marked "invalid"
 * are rejected by the documented rules whatever the rest of the request holds (DESIGN 3, decisions
 * 3-5), so a generator may rely on them to produce a request that must be refused.
 */

/** A JSON fragment written verbatim into a body (deep nesting, duplicate keys, `__proto__`). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify that writes RawJson fragments verbatim and keeps own `__proto__` keys. */
export function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : toJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts: string[] = [];
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) parts.push(`${JSON.stringify(key)}:${toJson(v)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Sets a key as an own enumerable property, even `__proto__`. */
export function withField(
  target: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  const copy = { ...target };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

const CONTROL = fc.constantFrom(
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)),
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
);
const LONE_SURROGATE = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const NASTY = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\uFEFF',
  '\u202E',
  '\u200B',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '__proto__',
  'constructor',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '%2e%2e%2f',
  '$' + '{jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '"; DROP TABLE transactions; --',
  'ｔｅｓｔ',
  'Ａ１',
  '١٢٣',
  '🚀'.repeat(20),
  'e\u0301'.repeat(40),
  'a'.repeat(65),
  'x'.repeat(4_096),
);

/** Strings a careful service must survive: unicode, control characters, lone surrogates, long ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    weight: 2,
    arbitrary: fc.string({
      unit: fc.oneof(CONTROL, fc.string({ minLength: 1, maxLength: 1 })),
      maxLength: 30,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.oneof(LONE_SURROGATE, fc.string({ minLength: 1, maxLength: 1 })),
      maxLength: 10,
    }),
  },
  { weight: 3, arbitrary: NASTY },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', '9', 'é', '\u0000', '1'), fc.integer({ min: 200, max: 20_000 }))
      .map(([c, n]) => c.repeat(n)),
  },
);

/** Any JSON value (what a confused or hostile client puts where a string belongs). */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, -1, 1.5, 1e21, -1e-7, Number.MAX_SAFE_INTEGER + 2, 2 ** 64),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

/** Deeply nested JSON text: recursion in a parser, validator or canonicaliser. */
export const deepJson: fc.Arbitrary<RawJson> = fc
  .tuple(fc.constantFrom('[', '{"a":'), fc.integer({ min: 50, max: 20_000 }))
  .map(([open, depth]) => new RawJson(open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth)));

// ---------------------------------------------------------------------------------------------------
// Amounts

/** Formats base units as a decimal string with `decimals` places ("1.5", "0.000000001"). */
export function formatUnits(units: bigint, decimals: number): string {
  const s = units.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  const fraction = s.slice(s.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A small valid amount for a currency with `decimals` places (at most one whole unit). */
export const smallAmount = (decimals: number): fc.Arbitrary<string> =>
  fc.bigInt({ min: 1n, max: 10n ** BigInt(decimals) }).map((u) => formatUnits(u, decimals));

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Amounts every currency rejects: exponent, sign, zero, too many places, over u64, not a number, wrong type. */
export const invalidAmount: fc.Arbitrary<unknown> = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 0, max: 999 }),
      fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'),
      fc.integer({ min: 0, max: 400 }),
    )
    .map(([m, e, x]) => `${m}${e}${x}`),
  fc.constantFrom('1e3', '1.5e2', '1E-3', '-1e3', '1e400'),
  smallAmount(9).map((a) => `-${a}`),
  fc.constantFrom('-0', '-0.5', '- 1', '0', '00', '0.0', '0.000000000', '000000000000.000'),
  // more fraction digits than any currency has (9), trailing zeros included
  fc
    .tuple(fc.nat(1_000), fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 10, maxLength: 40 }))
    .map(([w, f]) => `${w}.${f}`),
  // over u64 at 6 decimals and so at 9 too (u64 / 10^6 = 18446744073709.55)
  fc.bigInt({ min: 18_446_744_073_710n, max: 10n ** 40n }).map(String),
  fc.constantFrom(
    '18446744073709551616',
    '340282366920938463463374607431768211456',
    '9'.repeat(64),
    '1'.repeat(65),
  ),
  fc.constantFrom(
    '.5',
    '5.',
    '1.',
    '+1',
    ' 1',
    '1 ',
    '1,5',
    '1.5.5',
    '0x1A',
    '1_000',
    'Infinity',
    'NaN',
    '١',
    '１',
    '1\u0000',
    '½',
    '',
    '  ',
  ),
  hostileString.filter((s) => !DECIMAL.test(s)),
  fc.oneof(
    fc.constant(1.5),
    fc.constant(1),
    fc.constant(0),
    fc.constant(-1),
    fc.constant(1e21),
    fc.boolean(),
    fc.constant(null),
  ),
  fc.array(smallAmount(6), { minLength: 1, maxLength: 2 }),
  smallAmount(6).map((a) => ({ amount: a })),
);

/** Valid decimals that no account here holds: insufficient funds, found only by building the transaction. */
export const unaffordableAmount: fc.Arbitrary<string> = fc
  .bigInt({ min: 2_000_000_000n, max: 18_000_000_000n })
  .map(String);

// ---------------------------------------------------------------------------------------------------
// Keys and ids

export const randomKey: fc.Arbitrary<string> = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map(encodeBase58);
export const randomSignature: fc.Arbitrary<string> = fc
  .uint8Array({ minLength: 64, maxLength: 64 })
  .map(encodeBase58);

const NOT_BASE58 = fc.constantFrom('0', 'O', 'I', 'l', '+', '/', '=', ' ', '-', '_', '\u0000', 'é', '\u200B');

/** Base58-ish strings of the wrong length (1..31 or 33..64 bytes), and keys with a non-base58 character. */
export const invalidKeyString = (validKey: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    fc.uint8Array({ minLength: 1, maxLength: 31 }).map(encodeBase58),
    fc.uint8Array({ minLength: 33, maxLength: 96 }).map(encodeBase58),
    fc
      .tuple(validKey, NOT_BASE58, fc.nat(44))
      .map(([k, c, i]) => k.slice(0, i % k.length) + c + k.slice(i % k.length)),
    fc.tuple(validKey, NOT_BASE58).map(([k, c]) => k.slice(0, -1) + c),
    validKey.map((k) => ` ${k}`),
    validKey.map((k) => `${k}\n`),
    validKey.map((k) => k + k),
    validKey.map((k) => k.slice(0, 20)),
    fc.constantFrom('', '1', 'z'.repeat(129), '1'.repeat(200)),
    hostileString.filter((s) => !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(s)),
  );

export const invalidKey = (validKey: fc.Arbitrary<string>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 4, arbitrary: invalidKeyString(validKey) }, { weight: 1, arbitrary: anyJson });

// ---------------------------------------------------------------------------------------------------
// Headers

/** Header values node:http will write: tab, printable ASCII and obs-text (latin-1). */
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constant('\t') },
);
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: headerChar, maxLength: 60 }),
  fc.constantFrom('', ' ', 'null', '0', '-1', '%00', '\t'),
  fc.integer({ min: 256, max: 1_500 }).map((n) => 'v'.repeat(n)),
);
export const headerName: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^x-[a-z0-9-]{1,24}$/),
  fc.constantFrom(
    'accept',
    'accept-encoding',
    'accept-language',
    'cookie',
    'origin',
    'referer',
    'user-agent',
    'x-forwarded-for',
    'x-forwarded-host',
    'x-forwarded-proto',
    'x-real-ip',
    'x-http-method-override',
    'x-request-id',
    'forwarded',
    'content-encoding',
    'content-language',
    'if-none-match',
    'range',
    'cache-control',
    'pragma',
    'dnt',
    'te',
  ),
);
export const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.dictionary(headerName, headerValue, {
  maxKeys: 4,
});

/** Idempotency-Key values: valid (1-255 printable ASCII) and invalid ones. */
export const idempotencyKeyValid: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: 1,
    maxLength: 255,
  }),
);
export const idempotencyKeyInvalid: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc.constant(' '),
  fc.integer({ min: 256, max: 1_000 }).map((n) => 'k'.repeat(n)),
  fc
    .tuple(fc.uuid(), fc.constantFrom(' ', '\t', 'é', '\u00ff'))
    .map(([u, c]) => u.slice(0, 8) + c + u.slice(8)),
);

export const CONTENT_TYPES_OK = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
];
/** Content types that are not JSON: refused with 415 on body routes. */
export const contentTypeNotJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'text/plain',
    'text/json',
    'text/html',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=xyz',
    'application/octet-stream',
    'application/xml',
    'application/jsonx',
    'json',
    '*/*',
    '',
  ),
  headerValue.filter((v) => !/^application\/json\b/i.test(v)),
);
/** Any content type, JSON-looking or not. */
export const contentTypeAny: fc.Arbitrary<string> = fc.oneof(
  contentTypeNotJson,
  fc.constantFrom(
    ...CONTENT_TYPES_OK,
    'APPLICATION/JSON',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json-patch+json',
    'application/vnd.api+json',
    'application/json;;',
    'application/json, text/plain',
  ),
);

/** Authorization headers that must be refused with 401 (given the real key). */
export const badAuthorization = (apiKey: string): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(
      '',
      'Bearer',
      'Bearer ',
      `Bearer  ${apiKey}`,
      `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`,
      `Token ${apiKey}`,
      apiKey,
    ),
    fc.constant(`Bearer ${apiKey}x`),
    fc.constant(`Bearer ${apiKey.slice(0, -1)}`),
    fc.constant(`Bearer ${apiKey} ${apiKey}`),
    fc.stringMatching(/^[0-9a-f]{48}$/).map((h) => `Bearer ta_${h}`),
    fc.integer({ min: 257, max: 2_000 }).map((n) => `Bearer ${'a'.repeat(n)}`),
    headerValue.filter((v) => !v.includes(apiKey)).map((v) => `Bearer ${v}`),
  );

// ---------------------------------------------------------------------------------------------------
// Paths

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as on the wire). */
export function pctEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += UNRESERVED.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A path segment the way a client might write a parameter: encoded, raw, traversal, broken escapes. */
export const pathSegment = (value: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: value.map(pctEncode) },
    {
      weight: 1,
      arbitrary: value.filter((v) => v.length > 0 && /^[\x21-\x7e]+$/.test(v) && !/[/?#\\]/.test(v)),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '..',
        '.',
        '%2e%2e',
        '%2E%2E%2F',
        '..%2f..%2f..%2fetc%2fpasswd',
        '%252e%252e',
        '%zz',
        '%',
        '%E0%A4%A',
        '%C0%AE%C0%AE',
        '%00',
        '%FF%FE',
        '%F0%9F%9A%80',
        ';',
        '%3B',
        '*',
        '~',
        '%20',
        '+',
        'a%2Fb',
        '%u002e',
      ),
    },
  );

/** Rewrites a good path into a near miss: trailing or doubled slashes, dot segments, case, query. */
export const pathMutation: fc.Arbitrary<(path: string) => string> = fc.oneof(
  fc.constant((p: string) => `${p}/`),
  fc.constant((p: string) => p.replace('/v1/', '/v1//')),
  fc.constant((p: string) => `/${p}`),
  fc.constant((p: string) => p.replace('/api/', '/api/./')),
  fc.constant((p: string) => p.replace('/api/', '/x/../api/')),
  fc.constant((p: string) => p.replace('/api/', '/%2e%2e/v1/api/')),
  fc.constant((p: string) => p.replace('/api/', '/api%2F')),
  fc.constant((p: string) => p.toUpperCase()),
  fc.constant((p: string) => `${p}/extra`),
  fc.constant((p: string) => `${p};jsessionid=1`),
  fc.constant((p: string) => `${p}%00`),
  fc.constant((p: string) => `${p}#fragment`),
  fc.constant((p: string) => p.replace(/^\/v1/, '/v2')),
  fc.constant((p: string) => p.replace(/^\/v1/, '')),
  fc
    .dictionary(fc.string({ maxLength: 10 }), fc.oneof(fc.string({ maxLength: 20 }), hostileString), {
      maxKeys: 4,
    })
    .map(
      (q) => (p: string) =>
        `${p}?${Object.entries(q)
          .map(([k, v]) => `${pctEncode(k)}=${pctEncode(v.slice(0, 200))}`)
          .join('&')}`,
    ),
  fc.constant((p: string) => `${p}?${'a=1&'.repeat(500)}`),
);

/** HTTP methods node:http and its parser accept, beyond the route's own. */
export const anyMethod: fc.Arbitrary<string> = fc.constantFrom(
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'HEAD',
  'PURGE',
  'LOCK',
  'PROPFIND',
  'SEARCH',
  'TRACE',
);

// ---------------------------------------------------------------------------------------------------
// Bodies

export type BodySpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'raw'; readonly text: string | Uint8Array; readonly label: string };

export function encodeBody(body: BodySpec): string | Uint8Array | undefined {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'json':
      return toJson(body.value);
    case 'raw':
      return body.text;
  }
}

/** Text that is not one JSON document. */
export const malformedJson: fc.Arbitrary<BodySpec> = fc
  .oneof(
    fc.constantFrom(
      '{',
      '}',
      '{"account":',
      '{"amount":"1",}',
      "{'amount':'1'}",
      '{amount:"1"}',
      '{"amount":"1"}{"amount":"2"}',
      '{"amount":NaN}',
      '{"amount":Infinity}',
      '{"amount":01}',
      '{"a":"\\x41"}',
      '{"a":"\\ud800"}',
      '{"a":"\u0000"}',
      '\u0000',
      'null',
      'true',
      '"string"',
      '123',
      '[]',
      '[{}]',
      '\uFEFF{}',
      ' \n\t ',
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"admin":true}}}',
      '{"a":1,"a":2}',
    ),
    fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
    fc.json().map((j) => `${j},`),
    fc.string({ unit: 'binary', maxLength: 60 }),
  )
  .map((text) => ({ kind: 'raw', text, label: 'malformed' }) as const);

/** Bodies just under, at and over the 64 KiB limit, and far over it (also sent chunked). */
export const bodyOfSize = (limit: number): fc.Arbitrary<BodySpec> =>
  fc
    .oneof(
      fc.constantFrom(limit - 1, limit, limit + 1, limit + 2, limit * 2),
      fc.integer({ min: limit + 1, max: limit * 4 }),
      fc.integer({ min: limit - 200, max: limit - 1 }),
    )
    .map((size) => {
      const pad = Math.max(0, size - '{"name":""}'.length);
      return { kind: 'raw', text: `{"name":"${'n'.repeat(pad)}"}`, label: `size ${size}` } as const;
    });

export const randomBytesBody: fc.Arbitrary<BodySpec> = fc
  .uint8Array({ minLength: 1, maxLength: 512 })
  .map((bytes) => ({ kind: 'raw', text: bytes, label: 'bytes' }) as const);
