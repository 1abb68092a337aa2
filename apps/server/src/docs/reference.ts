import { type Context, Hono } from 'hono';
import type { DocsBundle } from './assets.js';
import { docsPage, INIT_SCRIPT } from './page.js';
import type { UndocumentedRoute } from './route-table.js';

const ASSETS = '/v1/docs/assets';

export const referenceRoute = {
  method: 'get',
  path: '/v1/docs',
  operationId: 'getApiReference',
  'x-use-case': 'API reference page',
  security: [],
} as const satisfies UndocumentedRoute;

export const referenceAssetRoute = {
  method: 'get',
  path: '/v1/docs/assets/{file}',
  operationId: 'getApiReferenceAsset',
  'x-use-case': 'API reference scripts',
  security: [],
} as const satisfies UndocumentedRoute;

/**
 * Scripts only from this origin and never inline; try-it may call this origin only. Scalar sets
 * its styles from script (style elements and attributes), hence 'unsafe-inline' for styles alone.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

const JS = 'text/javascript; charset=utf-8';

/** The bundle, read and gzipped once, on first use. */
function bundleCache(bundle: DocsBundle) {
  let plain: Promise<Uint8Array<ArrayBuffer>> | undefined;
  let gzipped: Promise<Uint8Array<ArrayBuffer>> | undefined;
  const read = () => {
    plain ??= bundle.load();
    return plain;
  };
  return {
    plain: read,
    gzipped: () => {
      gzipped ??= read().then(async (bytes) => {
        const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'));
        return new Uint8Array(await new Response(stream).arrayBuffer());
      });
      return gzipped;
    },
  };
}

/**
 * GET /v1/docs: the API reference (Scalar) over /v1/openapi.json, with try-it against this
 * origin, both security schemes and search; its assets under /v1/docs/assets/.
 */
export function createDocsRoutes(options: {
  specUrl: string;
  bundle?: DocsBundle;
  /** The OAuth client the page's Authorize names (the localnet's demo client). */
  oauthClientId?: string;
}): Hono {
  const app = new Hono();
  const bundleName = options.bundle ? `scalar-${options.bundle.version}.js` : undefined;
  const initName = `init-${hashOf(INIT_SCRIPT)}.js`;
  const page = docsPage({
    specUrl: options.specUrl,
    initUrl: `${ASSETS}/${initName}`,
    ...(options.oauthClientId ? { oauthClientId: options.oauthClientId } : {}),
    ...(bundleName ? { bundleUrl: `${ASSETS}/${bundleName}` } : {}),
  });
  const cache = options.bundle ? bundleCache(options.bundle) : undefined;

  app.get('/v1/docs', (c) => c.html(page, 200, { ...PAGE_HEADERS, 'Cache-Control': 'no-cache' }));

  // Both names carry a version or a hash of the content, so they never change under a URL.
  const immutable = {
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  };
  // One route for both scripts, whose names change with their content; any other name is not
  // found, as a path no route serves.
  app.get('/v1/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    if (file === initName) return c.body(INIT_SCRIPT, 200, { ...immutable, 'Content-Type': JS });
    if (file !== bundleName || !cache) return c.notFound();
    const headers = { ...immutable, 'Content-Type': JS, Vary: 'Accept-Encoding' };
    if (acceptsGzip(c)) {
      return c.body(await cache.gzipped(), 200, { ...headers, 'Content-Encoding': 'gzip' });
    }
    return c.body(await cache.plain(), 200, headers);
  });
  return app;
}

function acceptsGzip(c: Context): boolean {
  return /\bgzip\b/i.test(c.req.header('accept-encoding') ?? '');
}

/** FNV-1a, enough to tell two versions of a small script apart in its URL. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
